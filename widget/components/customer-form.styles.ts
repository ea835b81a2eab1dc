import { css } from 'lit';

export const customerFormStyles = css`
  :host {
    display: block;
  }
  form {
    display: grid;
    gap: 0.5rem;
  }
  /* One line is kept for each field's message, so a message appearing does not move what is below it. */
  .message {
    min-height: calc(0.875rem * 1.5);
  }
`;
