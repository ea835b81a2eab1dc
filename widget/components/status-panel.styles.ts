import { css } from 'lit';

export const statusPanelStyles = css`
  :host {
    display: block;
    text-align: center;
  }
  .icon {
    display: inline-grid;
    place-items: center;
    width: 3.5rem;
    height: 3.5rem;
    border-radius: 50%;
    margin: 0.5rem auto 0.75rem;
    color: var(--_tone);
    background: color-mix(in srgb, var(--_tone) 14%, var(--_bg));
  }
  :host([tone='success']) {
    --_tone: var(--_success);
  }
  :host([tone='failure']),
  :host([tone='error']) {
    --_tone: var(--_danger);
  }
  :host([tone='expired']),
  :host([tone='progress']) {
    --_tone: var(--_accent);
  }
  svg {
    width: 1.75rem;
    height: 1.75rem;
  }
  h2 {
    font-size: 1.25rem;
    margin: 0 0 0.5rem;
  }
  /* The heading takes focus only so that screen readers announce the new state; it is not a control. */
  h2:focus {
    outline: none;
  }
  .spinner {
    width: 1.75rem;
    height: 1.75rem;
  }
`;
