import { css } from 'lit';
import { operationsStyles } from '../screens/operations.styles.ts';

export const builderStyles = [
  ...operationsStyles,
  css`
    .builder {
      display: grid;
      gap: 1.5rem;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr));
      align-items: start;
    }
    form {
      display: grid;
      gap: 1rem;
    }
    fieldset {
      border: 1px solid var(--_divider);
      border-radius: calc(var(--_radius) - 4px);
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem 1rem;
      margin: 0;
    }
    .check {
      display: inline-flex;
      gap: 0.5rem;
      align-items: center;
      min-height: 44px;
      font-weight: 400;
    }
    input[type='radio'] {
      width: 1.25rem;
      min-height: 1.25rem;
      height: 1.25rem;
      margin: 0;
      accent-color: var(--_accent);
    }
    textarea {
      font: inherit;
      width: 100%;
      padding: 0.5rem 0.75rem;
      color: var(--_text);
      background: var(--_bg);
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) - 4px);
    }
    .preview {
      position: sticky;
      top: 1rem;
    }
    h3 {
      font-size: 1rem;
      margin: 0 0 0.5rem;
    }
    .page {
      border: 1px solid var(--_divider);
      border-radius: var(--_radius);
      background: var(--_surface);
      padding: 1.25rem;
      display: grid;
      gap: 0.5rem;
    }
    .page p {
      margin: 0;
    }
    .merchant {
      color: var(--_muted);
      font-weight: 600;
    }
    .title {
      font-size: 1.25rem;
      font-weight: 700;
    }
    .amount {
      font-size: 1.5rem;
      font-weight: 700;
      font-variant-numeric: tabular-nums;
    }
    .fee {
      color: var(--_muted);
      font-size: 0.875rem;
    }
    .pay {
      display: block;
      text-align: center;
      padding: 0.75rem;
      border-radius: calc(var(--_radius) - 4px);
      background: var(--_primary);
      color: var(--_on-primary);
      font-weight: 600;
    }
  `,
];
