import { CheckoutCloseEvent, CheckoutErrorEvent, CheckoutPendingEvent, CheckoutReadyEvent, CheckoutSuccessEvent, type CheckoutStatus } from '../events.ts';
import { checkoutWidgetStyles } from './checkout-widget.styles.ts';
import { EmbeddedFrame } from './embedded-frame.ts';
import { CheckoutEmbedError } from './frame-session.ts';
import { validBrandSetting, BRAND_SETTINGS, type EventDetail, type OrderItem, type Settings } from './protocol.ts';
import type { CheckoutDensity, CheckoutFont, CheckoutMode, CheckoutResult, CheckoutTheme } from './types.ts';

/** Attributes of `<checkout-widget>` and the `<ck-checkout>` settings they become inside the frame. */
const SETTING_ATTRIBUTES = {
  'api-key': 'api-key',
  reference: 'reference',
  currency: 'currency',
  description: 'description',
  email: 'customer-email',
  'first-name': 'customer-first-name',
  'last-name': 'customer-last-name',
  mobile: 'customer-mobile',
  country: 'customer-country',
  locale: 'locale',
  theme: 'theme',
  'client-token': 'client-token',
  'customer-session': 'customer-session',
  'brand-color': 'brand-color',
  radius: 'radius',
  font: 'font',
  density: 'density',
} as const;

const MESSAGES = {
  en: { refused: 'This checkout is not available on this site.', failed: 'The checkout could not be loaded. Check your connection and reload the page.' },
  fr: { refused: "Ce paiement n'est pas disponible sur ce site.", failed: 'Le paiement n’a pas pu être chargé. Vérifiez votre connexion et rechargez la page.' },
};

let sheet: CSSStyleSheet | undefined;

/**
 * `<checkout-widget>`: frames the checkout served from the checkout's own origin, so card data never enters this
 * page. Inline, the frame sits in the page and grows with its content; in modal mode (`mode="modal"`) the element
 * shows its children (your Pay button), and a click on them, or `open()`, shows the checkout in a modal dialog
 * that keeps focus inside, closes on Escape and gives focus back to what opened it. The frame's events are
 * dispatched again here as the typed `checkout:*` events, bubbling and composed.
 *
 * The tags below describe the element in the Custom Elements Manifest the build writes (`custom-elements.json`).
 *
 * @tagname checkout-widget
 * @attr api-key - The publishable key; an inline element starts when it has one.
 * @attr reference - Your order reference; with `amount` the order is created, alone an existing order is resumed.
 * @attr amount - The order amount in major units, never minor: `12500` with `NGN` is NGN 12,500.00, not 125.00 in kobo; `19.99` with `USD` is USD 19.99.
 * @attr currency - ISO 4217 code; NGN when absent.
 * @attr description - What the order is for.
 * @attr items - Line items as JSON: `[{"name":"Tea","amount":1200}]`.
 * @attr email - The customer's e-mail.
 * @attr first-name - The customer's first name.
 * @attr last-name - The customer's last name.
 * @attr mobile - The customer's phone number.
 * @attr country - The customer's country, two letters.
 * @attr client-token - The order's client token your server got creating it with the secret key; with `reference`, pays that order.
 * @attr customer-session - A customer session your server opened for a customer it vouches for: saved cards, and saving one.
 * @attr {'inline' | 'modal'} mode - `inline` (default) frames the checkout in the page; `modal` shows it in a dialog on `open()` or a click on the element's children.
 * @attr locale - BCP 47 language (`en`, `fr`); the browser's when absent.
 * @attr {'light' | 'dark' | 'auto'} theme - Light by default, whatever the customer's system prefers; `dark`, or `auto` to follow the system.
 * @attr api-base - The checkout's origin; the origin embed.js was loaded from when absent.
 * @attr brand-color - Your brand colour as `#rrggbb` or `#rgb`: the main buttons, links, selection and focus (kept readable in light and dark). Any other value is ignored.
 * @attr radius - Corner radius in pixels, 0 to 24 (`8` or `8px`). Any other value is ignored.
 * @attr {'system' | 'humanist' | 'geometric' | 'rounded' | 'serif'} font - A font stack of fonts already on the customer's device. Any other value is ignored.
 * @attr {'comfortable' | 'compact'} density - `compact` makes inputs and buttons 40 px high (44 px by default) and tightens the space between blocks.
 * @fires {CheckoutReadyEvent} checkout:ready - The checkout shows the order (reference, status).
 * @fires {CheckoutPendingEvent} checkout:pending - A payment awaits the bank or the customer's transfer (reference, status, method).
 * @fires {CheckoutSuccessEvent} checkout:success - The order is paid; verify it on your server before fulfilling.
 * @fires {CheckoutErrorEvent} checkout:error - A payment failed or the checkout cannot be shown (code, message).
 * @fires {CheckoutCloseEvent} checkout:close - The modal checkout closed.
 * @slot - In modal mode, what opens the checkout when clicked (your Pay button).
 * @csspart dialog - The modal dialog.
 * @csspart message - Why the checkout could not be shown.
 * @csspart placeholder - The room an inline checkout keeps while its frame loads.
 */
export class CheckoutWidgetElement extends HTMLElement {
  static readonly observedAttributes = [...Object.keys(SETTING_ATTRIBUTES), 'amount', 'items', 'mode', 'api-base'];
  /** Where the checkout lives when `api-base` is absent: the origin embed.js was loaded from. */
  static defaultApiBase = '';

  readonly #root: ShadowRoot;
  readonly #slot = document.createElement('slot');
  #frame: EmbeddedFrame | undefined;
  #dialog: HTMLDialogElement | undefined;
  #dialogOpen = false;
  #opener: HTMLElement | null = null;
  #updateQueued = false;
  #last: { reference: string | null; status: CheckoutStatus | null } = { reference: null, status: null };
  #closeSent = false;
  #result: { promise: Promise<CheckoutResult>; resolve: (result: CheckoutResult) => void; reject: (error: unknown) => void } | undefined;
  #items: OrderItem[] | undefined;

  constructor() {
    super();
    // Properties the page set before embed.js defined the element shadow the accessors: set them again through them.
    for (const name of PROPERTIES) {
      if (!Object.prototype.hasOwnProperty.call(this, name)) continue;
      const value = (this as Record<string, unknown>)[name];
      delete (this as Record<string, unknown>)[name];
      (this as Record<string, unknown>)[name] = value;
    }
    this.#root = this.attachShadow({ mode: 'open' });
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(checkoutWidgetStyles);
    }
    this.#root.adoptedStyleSheets = [sheet];
    this.#slot.addEventListener('click', () => void this.open().catch(() => undefined));
  }

  /** `modal` when the `mode` attribute says so, else `inline`. Reflects `mode`. */
  get mode(): CheckoutMode {
    return this.getAttribute('mode') === 'modal' ? 'modal' : 'inline';
  }
  set mode(value: CheckoutMode) {
    this.#reflect('mode', value);
  }

  /** Where the checkout is reached: `api-base`, else the origin embed.js was loaded from. Reflects `api-base`. */
  get apiBase(): string {
    return this.getAttribute('api-base') || CheckoutWidgetElement.defaultApiBase || window.location.origin;
  }
  set apiBase(value: string) {
    this.#reflect('api-base', value);
  }

  // Properties with the attributes' names, reflected to them; `items` is an array and is not reflected.

  /** The publishable key. Reflects `api-key`. */
  get apiKey(): string {
    return this.getAttribute('api-key') ?? '';
  }
  set apiKey(value: string) {
    this.#reflect('api-key', value);
  }
  /** Your order reference. Reflects `reference`. */
  get reference(): string {
    return this.getAttribute('reference') ?? '';
  }
  set reference(value: string) {
    this.#reflect('reference', value);
  }
  /** The order amount in major units (`12500` NGN is NGN 12,500.00); undefined to resume `reference`. Reflects `amount`. */
  get amount(): number | undefined {
    const amount = Number(this.getAttribute('amount') ?? Number.NaN);
    return Number.isFinite(amount) ? amount : undefined;
  }
  set amount(value: number | undefined) {
    this.#reflect('amount', value === undefined ? null : String(value));
  }
  /** ISO 4217 code. Reflects `currency`. */
  get currency(): string {
    return this.getAttribute('currency') ?? 'NGN';
  }
  set currency(value: string) {
    this.#reflect('currency', value);
  }
  /** What the order is for. Reflects `description`. */
  get description(): string {
    return this.getAttribute('description') ?? '';
  }
  set description(value: string) {
    this.#reflect('description', value);
  }
  /** Line items, amounts in major units; wins over the `items` attribute (JSON) once set. */
  get items(): OrderItem[] | undefined {
    return this.#items ?? parseItems(this.getAttribute('items'));
  }
  set items(value: OrderItem[] | undefined) {
    this.#items = Array.isArray(value) ? value.filter(isItem) : undefined;
    this.#changed();
  }
  /** The customer's e-mail. Reflects `email`. */
  get email(): string {
    return this.getAttribute('email') ?? '';
  }
  set email(value: string) {
    this.#reflect('email', value);
  }
  /** The customer's first name. Reflects `first-name`. */
  get firstName(): string {
    return this.getAttribute('first-name') ?? '';
  }
  set firstName(value: string) {
    this.#reflect('first-name', value);
  }
  /** The customer's last name. Reflects `last-name`. */
  get lastName(): string {
    return this.getAttribute('last-name') ?? '';
  }
  set lastName(value: string) {
    this.#reflect('last-name', value);
  }
  /** The customer's phone number. Reflects `mobile`. */
  get mobile(): string {
    return this.getAttribute('mobile') ?? '';
  }
  set mobile(value: string) {
    this.#reflect('mobile', value);
  }
  /** The customer's country, two letters. Reflects `country`. */
  get country(): string {
    return this.getAttribute('country') ?? '';
  }
  set country(value: string) {
    this.#reflect('country', value);
  }
  /** The order's client token from your server (it created the order with the secret key). Reflects `client-token`. */
  get clientToken(): string {
    return this.getAttribute('client-token') ?? '';
  }
  set clientToken(value: string) {
    this.#reflect('client-token', value);
  }
  /** A customer session from your server, for saved cards. Reflects `customer-session`. */
  get customerSession(): string {
    return this.getAttribute('customer-session') ?? '';
  }
  set customerSession(value: string) {
    this.#reflect('customer-session', value);
  }
  /** BCP 47 language. Reflects `locale`. */
  get locale(): string {
    return this.getAttribute('locale') ?? '';
  }
  set locale(value: string) {
    this.#reflect('locale', value);
  }
  /** `light` (default), `dark` or `auto`. Reflects `theme`. */
  get theme(): CheckoutTheme {
    const theme = this.getAttribute('theme');
    return theme === 'dark' || theme === 'auto' ? theme : 'light';
  }
  set theme(value: CheckoutTheme) {
    this.#reflect('theme', value);
  }

  /** Your brand colour (`#rrggbb` or `#rgb`); other values are ignored. Reflects `brand-color`. */
  get brandColor(): string {
    return this.getAttribute('brand-color') ?? '';
  }
  set brandColor(value: string) {
    this.#reflect('brand-color', value);
  }
  /** Corner radius in pixels, 0 to 24. Reflects `radius`. */
  get radius(): number | undefined {
    const radius = Number.parseFloat(this.getAttribute('radius') ?? '');
    return Number.isFinite(radius) ? radius : undefined;
  }
  set radius(value: number | undefined) {
    this.#reflect('radius', value === undefined ? null : String(value));
  }
  /** A font stack from the list (`system`, `humanist`, `geometric`, `rounded`, `serif`). Reflects `font`. */
  get font(): CheckoutFont | '' {
    return (this.getAttribute('font') ?? '') as CheckoutFont | '';
  }
  set font(value: CheckoutFont | '') {
    this.#reflect('font', value);
  }
  /** `comfortable` (default) or `compact`. Reflects `density`. */
  get density(): CheckoutDensity {
    return this.getAttribute('density') === 'compact' ? 'compact' : 'comfortable';
  }
  set density(value: CheckoutDensity) {
    this.#reflect('density', value);
  }

  #reflect(name: string, value: string | null | undefined): void {
    if (value === null || value === undefined || value === '') this.removeAttribute(name);
    else this.setAttribute(name, value);
  }

  /** `items` changed: the frame gets the new settings, or an inline element with none yet starts. */
  #changed(): void {
    if (this.isConnected) this.#queueUpdate();
  }

  connectedCallback(): void {
    if (this.mode === 'modal') {
      if (!this.#dialog) this.#root.replaceChildren(this.#slot);
    } else if (!this.#frame) {
      // The frame's room is kept from the start, so the merchant's page does not jump when the frame arrives.
      if (!this.#root.querySelector('.placeholder')) this.#root.replaceChildren(placeholder());
      this.#queueUpdate();
    }
  }

  disconnectedCallback(): void {
    this.#closeDialog();
    this.#stop();
    this.#settle({ outcome: 'closed', ...this.#last });
  }

  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (previous === value || !this.isConnected) return;
    if (name === 'api-key' || name === 'api-base' || name === 'mode') {
      this.#closeDialog();
      this.#stop();
      this.connectedCallback();
    } else {
      this.#queueUpdate();
    }
  }

  /** Shows the checkout in a modal dialog. Resolves when the order is paid or the dialog is closed. */
  open(): Promise<CheckoutResult> {
    if (this.#result) return this.#result.promise;
    if (this.mode !== 'modal') return Promise.reject(new CheckoutEmbedError('VAL400', 'open() needs mode="modal"; an inline checkout opens by itself.'));
    let resolve!: (result: CheckoutResult) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<CheckoutResult>((yes, no) => ((resolve = yes), (reject = no)));
    this.#result = { promise, resolve, reject };
    this.#opener = deepActiveElement();
    this.#closeSent = false;
    this.#last = { reference: this.getAttribute('reference'), status: null };
    this.#start();
    return promise;
  }

  /** Closes the modal checkout (as Escape does). */
  close(): void {
    this.#closeDialog();
  }

  /** The settings the checkout in the frame receives, from this element's attributes. */
  get #settings(): Settings {
    const settings: Settings = {};
    for (const [attribute, setting] of Object.entries(SETTING_ATTRIBUTES)) {
      const value = this.getAttribute(attribute);
      if (!value) continue;
      // Branding is checked here and again in the frame: a value of another shape is dropped, never sent.
      if (setting in BRAND_SETTINGS && !validBrandSetting(setting as keyof typeof BRAND_SETTINGS, value)) {
        console.warn(`checkout-widget: ${attribute}="${value.slice(0, 40)}" is ignored (see the element's documentation for the values it takes).`);
        continue;
      }
      settings[setting] = value;
    }
    const amount = Number(this.getAttribute('amount') ?? Number.NaN);
    if (this.hasAttribute('amount') && Number.isFinite(amount)) settings.amount = amount;
    const items = this.items;
    if (items) settings.items = items;
    return settings;
  }

  /** Attribute changes arrive one by one; the frame gets them together. */
  #queueUpdate(): void {
    if (this.#updateQueued) return;
    this.#updateQueued = true;
    queueMicrotask(() => {
      this.#updateQueued = false;
      if (this.#frame) this.#frame.update(this.#settings);
      else if (this.mode === 'inline' && this.isConnected) this.#start();
    });
  }

  #start(): void {
    const apiKey = this.getAttribute('api-key');
    const modal = this.mode === 'modal';
    // Inline, the element waits for the page to set a key; a modal asked to open without one cannot.
    if (!apiKey) {
      if (modal) this.#fail(new CheckoutEmbedError('AUTH401', 'The api-key attribute is missing.'));
      return;
    }
    let frame: EmbeddedFrame;
    try {
      frame = new EmbeddedFrame({ apiBase: this.apiBase, apiKey }, this.#settings, modal, {
        onEvent: (detail) => this.#relay(detail),
        onResize: (height) => {
          frame.iframe.style.height = `${height}px`;
        },
        onEscape: () => this.#closeDialog(),
        onFailure: (error) => {
          // Reported first, so the promise rejects rather than resolving as closed; then the empty frame goes.
          this.#fail(error);
          if (modal) this.#closeDialog();
          else this.#stop();
        },
      });
    } catch (error) {
      this.#fail(error instanceof CheckoutEmbedError ? error : new CheckoutEmbedError('VAL400', `api-base ${this.apiBase.slice(0, 200)} is not a web address.`));
      return;
    }
    this.#frame?.destroy();
    this.#frame = frame;
    if (modal) this.#showDialog(frame.iframe);
    else this.#root.replaceChildren(frame.iframe);
    frame.load();
  }

  #stop(): void {
    this.#frame?.destroy();
    this.#frame = undefined;
  }

  #showDialog(iframe: HTMLIFrameElement): void {
    if (!this.#dialog) {
      const dialog = document.createElement('dialog');
      dialog.setAttribute('part', 'dialog');
      dialog.setAttribute('aria-label', 'Checkout');
      dialog.addEventListener('close', () => this.#closed());
      this.#dialog = dialog;
    }
    this.#dialog.replaceChildren(iframe);
    this.#root.replaceChildren(this.#slot, this.#dialog);
    this.#dialog.showModal();
    this.#dialogOpen = true;
    iframe.focus();
  }

  /**
   * Closes the dialog and tidies up at once: the dialog's own close event waits for the next frame to be drawn,
   * which a page in a background tab never draws.
   */
  #closeDialog(): void {
    if (this.#dialog?.open) this.#dialog.close();
    this.#closed();
  }

  /** The dialog closed (Escape, the checkout's close button or Done, or `close()`): tidy up and give focus back. */
  #closed(): void {
    if (!this.#dialogOpen) return;
    this.#dialogOpen = false;
    this.#stop();
    this.#dialog?.replaceChildren();
    if (!this.#closeSent) this.dispatchEvent(new CheckoutCloseEvent(this.#last));
    this.#settle({ outcome: 'closed', ...this.#last });
    this.#opener?.focus();
    this.#opener = null;
  }

  #relay(detail: EventDetail): void {
    const init = { reference: detail.reference, status: detail.status };
    this.#last = init;
    switch (detail.type) {
      case 'checkout:ready':
        this.dispatchEvent(new CheckoutReadyEvent(init));
        return;
      case 'checkout:pending':
        this.dispatchEvent(new CheckoutPendingEvent(init, detail.method ?? 'card'));
        return;
      case 'checkout:success':
        this.dispatchEvent(new CheckoutSuccessEvent(init));
        this.#settle({ outcome: 'success', ...init });
        return;
      case 'checkout:error':
        this.dispatchEvent(new CheckoutErrorEvent(init, detail.code ?? 'UNREADABLE', detail.message ?? ''));
        return;
      case 'checkout:close':
        this.#closeSent = true;
        this.dispatchEvent(new CheckoutCloseEvent(init));
        this.#closeDialog();
    }
  }

  #settle(result: CheckoutResult): void {
    this.#result?.resolve(result);
    if (result.outcome === 'closed') this.#result = undefined;
  }

  /** The checkout cannot be shown here (origin not allowed, bad key, offline): say so, to the page and the customer. */
  #fail(error: CheckoutEmbedError): void {
    const messages = this.getAttribute('locale')?.toLowerCase().startsWith('fr') ? MESSAGES.fr : MESSAGES.en;
    if (this.mode === 'inline') {
      const message = document.createElement('p');
      message.className = 'message';
      message.setAttribute('role', 'alert');
      message.setAttribute('part', 'message');
      // A refused key or origin is the merchant's to fix: the customer is not sent to check their connection.
      message.textContent = error.code === 'AUTH401' || error.code === 'AUTH403' ? messages.refused : messages.failed;
      this.#root.replaceChildren(message);
    }
    console.warn(`checkout-widget: ${error.code} ${error.message}`);
    this.dispatchEvent(new CheckoutErrorEvent({ reference: this.getAttribute('reference'), status: null }, error.code, error.message));
    this.#result?.reject(error);
    this.#result = undefined;
  }
}

function placeholder(): HTMLElement {
  const element = document.createElement('div');
  element.className = 'placeholder';
  element.setAttribute('part', 'placeholder');
  element.setAttribute('aria-hidden', 'true');
  return element;
}

const PROPERTIES = ['apiKey', 'apiBase', 'mode', 'reference', 'amount', 'currency', 'description', 'items', 'email', 'firstName', 'lastName', 'mobile', 'country', 'clientToken', 'customerSession', 'locale', 'theme', 'brandColor', 'radius', 'font', 'density'];

const isItem = (item: unknown): item is OrderItem =>
  typeof (item as OrderItem | null)?.name === 'string' && typeof (item as OrderItem | null)?.amount === 'number';

function parseItems(text: string | null): OrderItem[] | undefined {
  if (!text) return undefined;
  try {
    const items: unknown = JSON.parse(text);
    return Array.isArray(items) ? items.filter(isItem) : undefined;
  } catch {
    return undefined;
  }
}

function deepActiveElement(): HTMLElement | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}
