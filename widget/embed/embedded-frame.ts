import { FRAME_FORM_FIELDS } from '../../shared/frame-form.ts';
import { CheckoutEmbedError } from './frame-session.ts';
import { asFrameMessage, colorSchemeFor, PROTOCOL, type EventDetail, type ParentMessage, type Settings } from './protocol.ts';

export interface FrameHandlers {
  onEvent(detail: EventDetail): void;
  onResize(height: number): void;
  onEscape(): void;
  /** The frame never said it was ready (blocked by the browser, a refused session, a network failure). */
  onFailure(error: CheckoutEmbedError): void;
}

/**
 * One checkout frame on the merchant's page. The frame's page is asked for with a form posted into the frame
 * (`load`): the key, this page's origin and the settings, in the request's body so they never appear in a URL. The
 * checkout's origin checks them and answers with the checkout showing the order, framable by this origin only: no
 * request comes before the frame's own. Messages are taken only from the frame's origin and its window, and the
 * settings are posted only to that origin, each time the frame says it is ready (it says so again after the 3-D
 * Secure page sends it back) and when they change.
 */
export class EmbeddedFrame {
  /** How long the frame may take to say `ready` before the checkout is reported as not shown. */
  static readyTimeoutMs = 15_000;

  readonly iframe: HTMLIFrameElement = document.createElement('iframe');
  readonly #origin: string;
  readonly #action: string;
  readonly #apiKey: string;
  #form: HTMLFormElement | undefined;
  #settings: Settings;
  #ready = false;
  #readyTimer: ReturnType<typeof setTimeout>;

  /** `apiBase` is the checkout's address (throws when it is not a web address); `apiKey` the publishable key. */
  constructor(
    checkout: { apiBase: string; apiKey: string },
    settings: Settings,
    readonly modal: boolean,
    private readonly handlers: FrameHandlers,
  ) {
    const base = new URL(checkout.apiBase);
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new CheckoutEmbedError('VAL400', `api-base ${checkout.apiBase.slice(0, 200)} is not a web address.`);
    this.#origin = base.origin;
    this.#action = `${checkout.apiBase.replace(/\/+$/, '')}/checkout/frame`;
    this.#apiKey = checkout.apiKey;
    this.#settings = settings;
    // The form's target: a name of its own, so two checkouts on one page never load into each other's frame.
    this.iframe.name = `checkout-${crypto.getRandomValues(new Uint32Array(2)).join('-')}`;
    this.iframe.title = 'Checkout';
    // The transfer view's copy buttons write to the clipboard from inside the frame. The checkout's origin is named:
    // `allow`'s default grants the origin of the iframe's `src`, and this frame has none (a form loads it), so a bare
    // `clipboard-write` would grant this page's origin, not the checkout's, and the copy would be refused.
    this.iframe.allow = `clipboard-write ${this.#origin}`;
    this.#matchColorScheme();
    window.addEventListener('message', this.#onMessage);
    document.addEventListener('securitypolicyviolation', this.#onPolicyViolation);
    // A frame the browser refuses to show (frame-ancestors), or whose page is an error page, never says ready, and
    // nothing else tells this page: without a deadline the customer would look at an empty box for ever.
    const seconds = Math.round(EmbeddedFrame.readyTimeoutMs / 1000);
    this.#readyTimer = setTimeout(() => {
      handlers.onFailure(new CheckoutEmbedError('TIMEOUT', `The checkout did not start within ${seconds} seconds: its frame was blocked or could not load.`));
    }, EmbeddedFrame.readyTimeoutMs);
  }

  /**
   * Loads the checkout into the frame, once the frame is in the page (a form can only target a frame there): the
   * form sits beside the frame, hidden, until the frame answers.
   */
  load(): void {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = this.#action;
    form.target = this.iframe.name;
    form.hidden = true;
    const fields: [string, string][] = [
      [FRAME_FORM_FIELDS.apiKey, this.#apiKey],
      [FRAME_FORM_FIELDS.parentOrigin, window.location.origin],
      [FRAME_FORM_FIELDS.settings, JSON.stringify(this.#settings)],
      [FRAME_FORM_FIELDS.modal, String(this.modal)],
    ];
    for (const [name, value] of fields) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    this.#form?.remove();
    this.#form = form;
    this.iframe.after(form);
    form.submit();
  }

  update(settings: Settings): void {
    this.#settings = settings;
    this.#matchColorScheme();
    if (this.#ready) this.#postSettings();
  }

  /**
   * The iframe element takes the colour scheme the framed page gives its root for the same theme (set through the
   * CSSOM, so the merchant's CSP needs no 'unsafe-inline'), rather than the merchant page's: when the two differ
   * the browser paints the frame opaque, a dark box on a light page when the system is dark.
   */
  #matchColorScheme(): void {
    this.iframe.style.colorScheme = colorSchemeFor(this.#settings.theme);
  }

  destroy(): void {
    clearTimeout(this.#readyTimer);
    window.removeEventListener('message', this.#onMessage);
    document.removeEventListener('securitypolicyviolation', this.#onPolicyViolation);
    this.#form?.remove();
    this.iframe.remove();
  }

  /** This page's Content-Security-Policy refused the form (`form-action`) or the frame (`frame-src`): say how to fix it. */
  readonly #onPolicyViolation = (event: SecurityPolicyViolationEvent): void => {
    const directive = event.effectiveDirective;
    if ((directive !== 'form-action' && directive !== 'frame-src') || !event.blockedURI.startsWith(this.#origin)) return;
    clearTimeout(this.#readyTimer);
    this.handlers.onFailure(
      new CheckoutEmbedError('CSP', `This page's Content-Security-Policy does not allow ${this.#origin} in ${directive}: add it there to show the checkout.`),
    );
  };

  readonly #onMessage = (event: MessageEvent): void => {
    if (event.origin !== this.#origin || event.source !== this.iframe.contentWindow) return;
    const message = asFrameMessage(event.data);
    if (!message) return;
    switch (message.kind) {
      case 'ready':
        clearTimeout(this.#readyTimer);
        this.#ready = true;
        this.#form?.remove();
        this.#form = undefined;
        this.#postSettings();
        return;
      case 'refused':
        clearTimeout(this.#readyTimer);
        this.handlers.onFailure(new CheckoutEmbedError(message.code, message.message));
        return;
      case 'event':
        this.handlers.onEvent(message.event);
        return;
      case 'resize':
        this.handlers.onResize(message.height);
        return;
      case 'escape':
        this.handlers.onEscape();
    }
  };

  #postSettings(): void {
    const message: ParentMessage = { protocol: PROTOCOL, kind: 'settings', settings: this.#settings, modal: this.modal };
    this.iframe.contentWindow?.postMessage(message, this.#origin);
  }
}
