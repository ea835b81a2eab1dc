import { css } from 'lit';
import { controls, tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  controls,
  css`
    :host {
      display: block;
    }
    form {
      display: grid;
      gap: 0.75rem;
      padding: 1rem;
      border: 1px solid var(--_divider);
      border-radius: var(--_radius);
    }
    h3 {
      margin: 0;
      font-size: 1rem;
    }
    p {
      margin: 0;
    }
    .alert-region:empty {
      display: none;
    }
    /* The modal form of the operations screens (modal, confirm()). */
    dialog {
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_bg);
      color: var(--_text);
      padding: 0;
      width: min(26rem, calc(100vw - 2rem));
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 0.5);
    }
    dialog form {
      border: none;
      padding: 1.25rem;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem 1rem;
      align-items: center;
    }
  `,
];
