import { css } from 'lit';
import { controls, tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  controls,
  css`
    :host {
      display: inline-block;
    }
    button {
      gap: 0.5rem;
      padding: 0.25rem 0.75rem;
      border-width: 2px;
      white-space: nowrap;
    }
    button[aria-checked='true'] {
      background: var(--_test-bg);
      color: var(--_test-text);
      border-color: var(--_test-edge);
    }
    .track {
      position: relative;
      width: 2.25rem;
      height: 1.25rem;
      border-radius: 999px;
      background: var(--_muted);
      flex: none;
    }
    [aria-checked='true'] .track {
      background: var(--_test-edge);
    }
    .thumb {
      position: absolute;
      top: 0.125rem;
      left: 0.125rem;
      width: 1rem;
      height: 1rem;
      border-radius: 50%;
      background: var(--_bg);
      transition: transform 120ms ease;
    }
    [aria-checked='true'] .thumb {
      transform: translateX(1rem);
    }
    .value {
      font-weight: 700;
      text-transform: uppercase;
      font-size: 0.8125rem;
      letter-spacing: 0.04em;
    }
    .label {
      font-weight: 500;
    }
    @media (prefers-reduced-motion: reduce) {
      .thumb {
        transition: none;
      }
    }
  `,
];
