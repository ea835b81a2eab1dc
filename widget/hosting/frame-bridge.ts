import type { CkCheckout } from '../components/checkout.ts';
import type { CheckoutErrorEvent, CheckoutPendingEvent } from '../events.ts';
import { asParentMessage, colorSchemeFor, EVENT_TYPES, PROTOCOL, SETTING_NAMES, type EventDetail, type FrameMessage, type Settings } from '../embed/protocol.ts';

/**
 * The checkout page's side of embedding (loaded when the page is served as a frame, `embedded` in its config).
 * The backend put the embedding page's origin in the config after checking it against the merchant's allowed
 * origins, and only that origin may frame this page (CSP frame-ancestors). The frame says `ready` to exactly that
 * origin, takes its settings only from that origin and from the parent window, and reports the checkout's events,
 * its height and the Escape key back. The order's return address after 3-D Secure is this frame's own URL (the
 * checkout's default), so the bank's page loads in the frame and comes back here, and the checkout resumes.
 */
/**
 * `parent` is the embedding window: `window.parent`, or a stand-in in tests. `session` is the frame session token,
 * the last segment of this frame's address (`/checkout/frame/{token}`, kept through the 3-D Secure round trip).
 */
export function connectToParent(checkout: CkCheckout, parentOrigin: string, parent: Window = window.parent, session = sessionOf(window.location)): void {
  if (parent === window || !parentOrigin) {
    // Opened on its own: no page will send the settings, so let the checkout say what is missing.
    checkout.embedded = false;
    return;
  }
  // Before the settings (and so the key) apply: every API call then names the session the backend opened.
  checkout.frameSession = session ?? '';
  const post = (message: DistributiveOmit<FrameMessage, 'protocol'>) => parent.postMessage({ protocol: PROTOCOL, ...message }, parentOrigin);
  document.documentElement.classList.add('embedded');

  // The focus wrap is a chunk of its own, for modal frames only: fetched when the page says the frame is a dialog,
  // while the customer is still reading the first screen.
  let focusTrap: Promise<() => void> | undefined;
  window.addEventListener('message', (event) => {
    if (event.origin !== parentOrigin || event.source !== parent) return;
    const message = asParentMessage(event.data);
    if (!message) return;
    // The dialog opens with focus on the iframe element, and a frame of another site (another process) gets none
    // from it: Tab would then skip the frame and leave the dialog. This document takes focus itself, as a frame of
    // the page's own site is given it, so the first Tab reaches the first control and the wrap holds from there.
    if (message.modal && !focusTrap) window.focus();
    applySettings(checkout, message.settings, message.modal);
    if (message.modal) focusTrap ??= import('./focus-trap.ts').then(({ trapFocus }) => trapFocus(document));
    else if (focusTrap) {
      void focusTrap.then((release) => release());
      focusTrap = undefined;
    }
  });

  for (const type of EVENT_TYPES) {
    checkout.addEventListener(type, (event) => post({ kind: 'event', event: describe(type, event) }));
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !event.defaultPrevented) post({ kind: 'escape' });
  });

  post({ kind: 'ready' });

  // Measured once now (observers only run when a frame is drawn, which a background tab never does), then on change.
  let lastHeight = -1;
  const reportHeight = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    post({ kind: 'resize', height });
  };
  new ResizeObserver(reportHeight).observe(document.body);
  reportHeight();
}

function sessionOf(location: Location): string | undefined {
  // A signed JWT: header, claims and signature, each base64url.
  return /\/checkout\/frame\/([\w-]+\.[\w-]+\.[\w-]+)$/.exec(location.pathname)?.[1];
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Every setting is written each time, so a setting the page dropped is dropped here too. */
function applySettings(checkout: CkCheckout, settings: Settings, modal: boolean): void {
  for (const name of SETTING_NAMES) {
    const value = settings[name];
    if (name === 'items') checkout.items = settings.items;
    else if (value === undefined || value === '') checkout.removeAttribute(name);
    else checkout.setAttribute(name, String(value));
  }
  checkout.closable = modal;
  // The page's root takes the theme's colour scheme, as the embedding page gives the iframe element: the two agree,
  // so the browser keeps the frame transparent around the checkout.
  document.documentElement.style.colorScheme = colorSchemeFor(settings.theme);
}

function describe(type: EventDetail['type'], event: Event): EventDetail {
  const { reference, status } = event as CheckoutPendingEvent;
  const detail: EventDetail = { type, reference, status };
  if (type === 'checkout:pending') detail.method = (event as CheckoutPendingEvent).method;
  if (type === 'checkout:error') {
    detail.code = (event as CheckoutErrorEvent).code;
    detail.message = (event as CheckoutErrorEvent).message;
  }
  return detail;
}
