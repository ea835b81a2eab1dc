import { css } from 'lit';
import { operationsStyles } from './operations.styles.ts';

export const settingsStyles = [
  ...operationsStyles,
  css`
    .layout {
      display: grid;
      gap: 1.5rem;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr));
      align-items: start;
    }
    form {
      display: grid;
      gap: 1rem;
    }
    .colour {
      display: grid;
      grid-template-columns: 1fr auto;
      gap: 0.5rem;
      align-items: end;
    }
    input[type='color'] {
      width: 44px;
      min-height: 44px;
      padding: 2px;
    }
    .checkout {
      border: 1px solid var(--_divider);
      border-radius: var(--_radius);
      background: var(--_surface);
      padding: 1.25rem;
      display: grid;
      gap: 0.75rem;
    }
    .checkout p {
      margin: 0;
    }
    .merchant {
      display: flex;
      align-items: center;
      gap: 0.5rem;
      font-weight: 600;
    }
    .monogram {
      display: inline-grid;
      place-items: center;
      width: 2rem;
      height: 2rem;
      border-radius: 50%;
      background: var(--_divider);
      font-size: 0.75rem;
    }
    .amount {
      font-size: 1.5rem;
      font-weight: 700;
    }
    .pay {
      width: 100%;
      height: auto;
    }
  `,
];
