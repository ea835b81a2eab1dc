import { css } from 'lit';
import { controls, tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  controls,
  css`
    :host {
      display: block;
      min-height: 100vh;
      background: var(--_page);
      overflow-wrap: break-word;
    }
    .skip {
      position: absolute;
      left: 0.5rem;
      top: -4rem;
      z-index: 2;
    }
    .skip:focus {
      top: 0.5rem;
    }
    .test-banner {
      margin: 0;
      padding: 0.5rem 1rem;
      background: var(--_test-bg);
      color: var(--_test-text);
      border-bottom: 3px solid var(--_test-edge);
      text-align: center;
    }
    .bar {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.75rem 1rem;
      padding: 0.75rem 1rem;
      background: var(--_bg);
      border-bottom: 1px solid var(--_divider);
    }
    .bar.test {
      border-bottom: 3px solid var(--_test-edge);
    }
    .brand {
      font-weight: 700;
      font-size: 1.125rem;
      margin-right: auto;
    }
    .preferences {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
    }
    .preference {
      display: flex;
      align-items: center;
      gap: 0.375rem;
      font-weight: 500;
      font-size: 0.875rem;
    }
    .preference select {
      width: auto;
      min-height: 36px;
      padding: 0.125rem 0.5rem;
    }
    .who {
      font-size: 0.875rem;
    }
    .layout {
      display: grid;
      grid-template-columns: minmax(0, 1fr);
    }
    nav ul {
      list-style: none;
      margin: 0;
      padding: 0.5rem;
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem;
    }
    nav a {
      display: block;
      padding: 0.5rem 0.75rem;
      border-radius: calc(var(--_radius) - 4px);
      color: var(--_text);
      text-decoration: none;
      font-weight: 500;
      min-height: 44px;
    }
    nav a:hover {
      background: var(--_surface);
    }
    nav a[aria-current='page'] {
      background: var(--_surface);
      color: var(--_accent);
      font-weight: 700;
      box-shadow: inset 3px 0 0 var(--_accent);
    }
    main {
      padding: 1rem;
      min-width: 0;
      outline: none;
    }
    /* Focused by the router so reading starts at the new screen; not a control, so no focus ring. */
    main:focus {
      outline: none;
    }
    .signed-out main {
      max-width: 28rem;
      margin: 2rem auto;
    }
    @media (min-width: 48rem) {
      .layout {
        grid-template-columns: 13rem minmax(0, 1fr);
      }
      nav ul {
        flex-direction: column;
        padding: 1rem 0.75rem;
      }
      main {
        padding: 1.5rem 2rem;
      }
    }
  `,
];
