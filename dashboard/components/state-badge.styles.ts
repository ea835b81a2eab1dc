import { css } from 'lit';
import { tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  css`
    :host {
      display: inline-block;
    }
    .badge {
      display: inline-flex;
      align-items: center;
      gap: 0.375rem;
      padding: 0.125rem 0.5rem;
      border-radius: 999px;
      font-size: 0.8125rem;
      font-weight: 600;
      white-space: nowrap;
      border: 1px solid var(--_tone);
      background: color-mix(in srgb, var(--_tone) 12%, var(--_bg));
      color: var(--_text);
    }
    .mark {
      display: inline-grid;
      place-items: center;
      width: 1rem;
      height: 1rem;
      border-radius: 50%;
      background: var(--_tone);
      color: var(--_bg);
      font-size: 0.6875rem;
      line-height: 1;
    }
    .good {
      --_tone: var(--_success);
    }
    .bad {
      --_tone: var(--_danger);
    }
    .warning {
      --_tone: var(--_test-edge);
    }
    .waiting {
      --_tone: var(--_muted);
    }
  `,
];
