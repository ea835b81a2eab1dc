import { css } from 'lit';
import { tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  css`
    :host {
      display: block;
    }
    h2 {
      margin: 0;
    }
    p {
      margin: 0.25rem 0 0.5rem;
    }
    progress {
      width: 100%;
      height: 0.5rem;
      accent-color: var(--_success);
    }
    ul {
      list-style: none;
      margin: 0.75rem 0 0;
      padding: 0;
      display: grid;
      gap: 0.5rem;
    }
    li {
      display: flex;
      align-items: center;
      gap: 0.625rem;
    }
    .mark {
      flex: none;
      display: inline-grid;
      place-items: center;
      width: 1.375rem;
      height: 1.375rem;
      border-radius: 50%;
      border: 2px solid var(--_border);
      font-size: 0.8125rem;
      font-weight: 700;
    }
    .done .mark {
      background: var(--_success);
      border-color: var(--_success);
      color: var(--_bg);
    }
    .done .step {
      color: var(--_muted);
      text-decoration: line-through;
    }
  `,
];
