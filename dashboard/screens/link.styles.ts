import { css } from 'lit';
import { operationsStyles } from './operations.styles.ts';

export const linkStyles = [
  ...operationsStyles,
  css`
    h1 {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
      align-items: center;
    }
    .top {
      display: grid;
      gap: 1rem;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr));
      margin-block-end: 1.5rem;
    }
    .panel {
      display: grid;
      gap: 0.75rem;
      align-content: start;
    }
    iframe {
      width: 100%;
      height: 30rem;
      border: 1px solid var(--_divider);
      border-radius: calc(var(--_radius) - 4px);
      background: #fff;
    }
    .cards li {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
      align-items: center;
    }
  `,
];
