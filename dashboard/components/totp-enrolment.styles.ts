import { css } from 'lit';
import { controls, tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  controls,
  css`
    :host {
      display: block;
    }
    form,
    .codes-step {
      display: grid;
      gap: 1rem;
    }
    h2,
    p {
      margin: 0;
    }
    ol {
      margin: 0;
      padding-inline-start: 1.25rem;
      display: grid;
      gap: 0.5rem;
    }
    .qr {
      justify-self: start;
      background: #fff;
      padding: 0.5rem;
      border-radius: calc(var(--_radius) - 4px);
      line-height: 0;
    }
    .qr svg {
      width: 11rem;
      height: 11rem;
    }
    code,
    .codes {
      font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
      overflow-wrap: anywhere;
    }
    .codes {
      display: grid;
      grid-template-columns: repeat(2, max-content);
      gap: 0.25rem 1.5rem;
      list-style: none;
      padding: 0.75rem;
      margin: 0;
      background: var(--_surface);
      border-radius: calc(var(--_radius) - 4px);
    }
    details summary {
      cursor: pointer;
    }
    .alert-region:empty {
      display: none;
    }
    .link {
      justify-self: start;
    }
  `,
];
