import { css } from 'lit';

export const cardFormStyles = css`
  :host {
    display: block;
  }
  form,
  fieldset {
    display: grid;
    gap: 1rem;
  }
  fieldset {
    border: 0;
    margin: 0;
    padding: 0;
    min-width: 0;
  }
  .row {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 8.5rem), 1fr));
    gap: 1rem;
  }
  .field {
    align-content: start;
  }
  /* One line is kept under each control for its hint or its message, so a message appearing moves nothing. */
  .message {
    min-height: calc(0.875rem * 1.5);
    font-size: 0.875rem;
    line-height: 1.5;
  }
  .message .error {
    line-height: 1.5;
  }
  .note {
    margin: 0;
    color: var(--_muted);
    font-size: 0.875rem;
  }
  .label-row {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
    min-height: 1.5rem;
  }
  .brand-mark {
    width: 1.75rem;
    height: auto;
    border-radius: 3px;
    flex: none;
  }
  #number {
    font-variant-numeric: tabular-nums;
  }
  .badge {
    display: inline-flex;
    align-items: center;
    gap: 0.375rem;
    font-size: 0.75rem;
    font-weight: 700;
    padding: 0 0.5rem 0 0.125rem;
    border-radius: 999px;
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: var(--_text);
    white-space: nowrap;
  }
  .check {
    display: flex;
    gap: 0.625rem;
    align-items: center;
    font-weight: 400;
    min-height: 24px;
    cursor: pointer;
  }
  .check input {
    width: 1.25rem;
    height: 1.25rem;
    min-height: 0;
    margin: 0;
    accent-color: var(--_accent);
  }
`;
