/**
 * The host element's own styles, adopted as a constructed stylesheet: allowed under a strict CSP (no inline
 * style), and invisible to the merchant's page. The checkout itself is styled inside its frame.
 */
export const checkoutWidgetStyles = `
:host { display: block; }
:host([hidden]) { display: none; }
:host([mode='modal']) { display: contents; }
iframe, .placeholder { display: block; width: 100%; height: 22rem; border: 0; background: transparent; }
.message { margin: 0; padding: 0.75rem 1rem; border: 1px solid #b91c1c; border-radius: 8px; color: #7f1d1d; background: #fef2f2; font: inherit; }
dialog { box-sizing: border-box; width: min(32rem, 100vw); max-width: 100vw; max-height: 100dvh; padding: 0; border: 0; background: transparent; overflow: hidden; }
dialog::backdrop { background: rgb(15 23 42 / 0.6); }
dialog iframe { max-height: calc(100dvh - 2rem); }
`;
