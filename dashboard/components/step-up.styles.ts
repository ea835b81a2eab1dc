import { css } from 'lit';
import { controls, tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  controls,
  css`
    dialog {
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_bg);
      color: var(--_text);
      padding: 1.25rem;
      width: min(26rem, calc(100vw - 2rem));
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 0.5);
    }
    form {
      display: grid;
      gap: 0.75rem;
    }
    .buttons {
      display: flex;
      gap: 0.5rem;
      justify-content: flex-end;
      flex-wrap: wrap;
    }
  `,
];
