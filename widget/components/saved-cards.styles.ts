import { css } from 'lit';

export const savedCardsStyles = css`
  label {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    padding: 0.625rem 0.875rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 2px);
    cursor: pointer;
    flex-wrap: wrap;
  }
  label:has(input:checked) {
    border: 2px solid var(--_accent);
    padding: calc(0.625rem - 1px) calc(0.875rem - 1px);
  }
  label:has(input:focus-visible) {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  input {
    width: 1.25rem;
    height: 1.25rem;
    margin: 0;
    accent-color: var(--_accent);
  }
  input:focus-visible {
    outline: none;
  }
  .brand-mark {
    width: 2rem;
    height: auto;
    flex: none;
  }
  .text {
    display: grid;
    flex: 1;
    min-width: 8rem;
  }
  .expiry {
    color: var(--_muted);
    font-size: 0.875rem;
  }
  label.expired {
    cursor: not-allowed;
    border-style: dashed;
  }
  label.expired .expiry {
    color: var(--_danger);
    font-weight: 600;
  }
`;
