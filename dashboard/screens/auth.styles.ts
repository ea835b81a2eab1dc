import { css } from 'lit';
import { controls, tokens } from '../styles/shared.styles.ts';

/** The sign-in and invitation screens: one narrow panel. */
export const styles = [
  tokens,
  controls,
  css`
    :host {
      display: block;
    }
    .panel {
      padding: 1.5rem;
    }
    form {
      display: grid;
      gap: 1rem;
    }
    .alert-region:empty {
      display: none;
    }
    .alert-region p {
      margin: 0 0 1rem;
    }
    .notice {
      background: var(--_surface);
      padding: 0.5rem 0.75rem;
      border-radius: calc(var(--_radius) - 4px);
    }
    .or {
      display: flex;
      align-items: center;
      gap: 0.75rem;
      color: var(--_muted);
      margin: 1rem 0;
    }
    .or::before,
    .or::after {
      content: '';
      flex: 1;
      border-top: 1px solid var(--_divider);
    }
    .passkey {
      width: 100%;
    }
    .link {
      justify-self: start;
    }
  `,
];
