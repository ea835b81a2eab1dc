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
 * One checkout frame on the merchant's page. Messages are taken only from the frame's origin and its window, and
 * the settings are posted only to that origin, each time the frame says it is ready (it says so again after the
 * 3-D Secure page sends it back), so they never appear in a URL.
 */
export class EmbeddedFrame {
  /** How long the frame may take to say `ready` before the checkout is reported as not shown. */
  static readyTimeoutMs = 15_000;

  readonly iframe: HTMLIFrameElement = document.createElement('iframe');
  readonly #origin: string;
  #settings: Settings;
  #ready = false;
  #readyTimer: ReturnType<typeof setTimeout>;

  constructor(
    session: { frameUrl: string; frameOrigin: string },
    settings: Settings,
    readonly modal: boolean,
    private readonly handlers: FrameHandlers,
  ) {
    this.#origin = session.frameOrigin;
    this.#settings = settings;
    this.iframe.src = session.frameUrl;
    this.iframe.title = 'Checkout';
    // The transfer view's copy buttons write to the clipboard from inside the frame.
    this.iframe.allow = 'clipboard-write';
    this.#matchColorScheme();
    window.addEventListener('message', this.#onMessage);
    // A frame the browser refuses to show (frame-ancestors), or whose page is an error page, never says ready, and
    // nothing else tells this page: without a deadline the customer would look at an empty box for ever.
    const seconds = Math.round(EmbeddedFrame.readyTimeoutMs / 1000);
    this.#readyTimer = setTimeout(() => {
      handlers.onFailure(new CheckoutEmbedError('TIMEOUT', `The checkout did not start within ${seconds} seconds: its frame was blocked or could not load.`));
    }, EmbeddedFrame.readyTimeoutMs);
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
    this.iframe.remove();
  }

  readonly #onMessage = (event: MessageEvent): void => {
    if (event.origin !== this.#origin || event.source !== this.iframe.contentWindow) return;
    const message = asFrameMessage(event.data);
    if (!message) return;
    switch (message.kind) {
      case 'ready':
        clearTimeout(this.#readyTimer);
        this.#ready = true;
        this.#postSettings();
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
