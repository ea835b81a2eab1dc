import { css } from 'lit';

export const paymentOptionsStyles = css`
  legend {
    font-size: 1rem;
  }
  label {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0.125rem 0.75rem;
    align-items: center;
    padding: 0.75rem 0.875rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 2px);
    background: var(--_bg);
    cursor: pointer;
  }
  label:has(input:checked) {
    border: 2px solid var(--_accent);
    padding: calc(0.75rem - 1px) calc(0.875rem - 1px);
    background: color-mix(in srgb, var(--_accent) 7%, var(--_bg));
  }
  label:has(input:focus-visible) {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  input {
    grid-row: span 2;
    width: 1.25rem;
    height: 1.25rem;
    margin: 0;
    accent-color: var(--_accent);
  }
  input:focus-visible {
    outline: none;
  }
  .name {
    font-weight: 600;
  }
  .hint {
    grid-column: 2;
    color: var(--_muted);
    font-size: 0.875rem;
  }
`;
