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
    }
    p {
      margin: 0;
    }
    fieldset {
      border: 0;
      padding: 0;
      margin: 0;
      display: grid;
      gap: 0.25rem;
    }
    .choice input {
      width: 1.25rem;
      min-height: 1.25rem;
      height: 1.25rem;
      margin: 0;
      accent-color: var(--_accent);
    }
    .choice {
      display: flex;
      gap: 0.5rem;
      align-items: center;
      font-weight: normal;
    }
    .alert-region:empty {
      display: none;
    }
    button.primary {
      justify-self: start;
    }
  `,
];
