declare const ORDER_STATUS: {
	readonly 1: "Initiated";
	readonly 2: "Pending";
	readonly 4: "Failed";
	readonly 5: "Successful";
	readonly 6: "Reversed";
};
declare const ERROR_CODES: {
	readonly VAL400: 400;
	readonly AUTH401: 401;
	readonly AUTH403: 403;
	readonly NF404: 404;
	readonly CON409: 409;
	readonly IDEM422: 422;
	readonly RATE429: 429;
	readonly ERR500: 500;
};
export type ErrorCode = keyof typeof ERROR_CODES;
/** Envelope codes, plus what can go wrong before an envelope arrives. */
export type ApiErrorCode = ErrorCode | "NETWORK" | "UNREADABLE" | "NO_KEY";
/** An order's status by name (protocol.md section 5). */
export type CheckoutStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];
export interface CheckoutEventInit {
	reference: string | null;
	status: CheckoutStatus | null;
}
declare abstract class CheckoutEvent extends Event {
	readonly reference: string | null;
	readonly status: CheckoutStatus | null;
	constructor(type: string, init: CheckoutEventInit);
}
declare class CheckoutReadyEvent extends CheckoutEvent {
	static readonly eventName: "checkout:ready";
	constructor(init: CheckoutEventInit);
}
declare class CheckoutPendingEvent extends CheckoutEvent {
	readonly method: "card" | "bank-transfer";
	static readonly eventName: "checkout:pending";
	constructor(init: CheckoutEventInit, method: "card" | "bank-transfer");
}
declare class CheckoutSuccessEvent extends CheckoutEvent {
	static readonly eventName: "checkout:success";
	constructor(init: CheckoutEventInit);
}
declare class CheckoutErrorEvent extends CheckoutEvent {
	readonly code: ApiErrorCode | string;
	readonly message: string;
	static readonly eventName: "checkout:error";
	constructor(init: CheckoutEventInit, code: ApiErrorCode | string, message: string);
}
declare class CheckoutCloseEvent extends CheckoutEvent {
	static readonly eventName: "checkout:close";
	constructor(init: CheckoutEventInit);
}
declare global {
	interface GlobalEventHandlersEventMap {
		"checkout:ready": CheckoutReadyEvent;
		"checkout:pending": CheckoutPendingEvent;
		"checkout:success": CheckoutSuccessEvent;
		"checkout:error": CheckoutErrorEvent;
		"checkout:close": CheckoutCloseEvent;
	}
}
export interface OrderItem {
	name: string;
	amount: number;
}
declare class CheckoutWidgetElement extends HTMLElement {
	#private;
	static readonly observedAttributes: string[];
	/** Where the checkout lives when `api-base` is absent: the origin embed.js was loaded from. */
	static defaultApiBase: string;
	constructor();
	/** `modal` when the `mode` attribute says so, else `inline`. Reflects `mode`. */
	get mode(): CheckoutMode;
	set mode(value: CheckoutMode);
	/** Where the checkout is reached: `api-base`, else the origin embed.js was loaded from. Reflects `api-base`. */
	get apiBase(): string;
	set apiBase(value: string);
	/** The publishable key. Reflects `api-key`. */
	get apiKey(): string;
	set apiKey(value: string);
	/** Your order reference. Reflects `reference`. */
	get reference(): string;
	set reference(value: string);
	/** The order amount in major units (`12500` NGN is NGN 12,500.00); undefined to resume `reference`. Reflects `amount`. */
	get amount(): number | undefined;
	set amount(value: number | undefined);
	/** ISO 4217 code. Reflects `currency`. */
	get currency(): string;
	set currency(value: string);
	/** What the order is for. Reflects `description`. */
	get description(): string;
	set description(value: string);
	/** Line items, amounts in major units; wins over the `items` attribute (JSON) once set. */
	get items(): OrderItem[] | undefined;
	set items(value: OrderItem[] | undefined);
	/** The customer's e-mail. Reflects `email`. */
	get email(): string;
	set email(value: string);
	/** The customer's first name. Reflects `first-name`. */
	get firstName(): string;
	set firstName(value: string);
	/** The customer's last name. Reflects `last-name`. */
	get lastName(): string;
	set lastName(value: string);
	/** The customer's phone number. Reflects `mobile`. */
	get mobile(): string;
	set mobile(value: string);
	/** The customer's country, two letters. Reflects `country`. */
	get country(): string;
	set country(value: string);
	/** The order's client token from your server (it created the order with the secret key). Reflects `client-token`. */
	get clientToken(): string;
	set clientToken(value: string);
	/** A customer session from your server, for saved cards. Reflects `customer-session`. */
	get customerSession(): string;
	set customerSession(value: string);
	/** BCP 47 language. Reflects `locale`. */
	get locale(): string;
	set locale(value: string);
	/** `light` (default), `dark` or `auto`. Reflects `theme`. */
	get theme(): CheckoutTheme;
	set theme(value: CheckoutTheme);
	/** Your brand colour (`#rrggbb` or `#rgb`); other values are ignored. Reflects `brand-color`. */
	get brandColor(): string;
	set brandColor(value: string);
	/** Corner radius in pixels, 0 to 24. Reflects `radius`. */
	get radius(): number | undefined;
	set radius(value: number | undefined);
	/** A font stack from the list (`system`, `humanist`, `geometric`, `rounded`, `serif`). Reflects `font`. */
	get font(): CheckoutFont | "";
	set font(value: CheckoutFont | "");
	/** `comfortable` (default) or `compact`. Reflects `density`. */
	get density(): CheckoutDensity;
	set density(value: CheckoutDensity);
	connectedCallback(): void;
	disconnectedCallback(): void;
	attributeChangedCallback(name: string, previous: string | null, value: string | null): void;
	/** Shows the checkout in a modal dialog. Resolves when the order is paid or the dialog is closed. */
	open(): Promise<CheckoutResult>;
	/** Closes the modal checkout (as Escape does). */
	close(): void;
}
declare class PaymentCheckout {
	private readonly options;
	constructor(options: PaymentCheckoutOptions);
	init(): void;
}
export type CheckoutMode = "inline" | "modal";
/** `light` by default, whatever the customer's system prefers; `auto` follows it. */
export type CheckoutTheme = "light" | "dark" | "auto";
/** Font stacks of fonts already on the customer's device; nothing is downloaded. */
export type CheckoutFont = "system" | "humanist" | "geometric" | "rounded" | "serif";
export type CheckoutDensity = "comfortable" | "compact";
/** What `Checkout.open` takes: the order, the customer, and callbacks. */
export interface CheckoutOptions {
	/** Publishable key (`pk_test_…` or `pk_live_…`). */
	apiKey: string;
	/** Your order reference (letters, digits, `. _ ~ : -`); one is made when absent and given back in the result. */
	reference?: string;
	/**
	 * In major units, never minor: `5000` with `NGN` is NGN 5,000.00 (not 50.00 in kobo), `5800.5` is NGN 5,800.50.
	 * Without it, the order `reference` is resumed.
	 */
	amount?: number;
	/** ISO 4217; `NGN` by default. */
	currency?: string;
	description?: string;
	items?: OrderItem[];
	email?: string;
	firstName?: string;
	lastName?: string;
	mobile?: string;
	/** Two letters (`NG`). */
	country?: string;
	/** `en`, `fr`, …; the customer's browser language by default. */
	locale?: string;
	theme?: CheckoutTheme;
	/** Your brand colour, `#rrggbb` or `#rgb`: main buttons, links, selection and focus. Other values are ignored. */
	brandColor?: string;
	/** Corner radius in pixels, 0 to 24. */
	radius?: number;
	font?: CheckoutFont;
	/** `compact`: 40 px inputs and buttons (44 px by default), less space between blocks. */
	density?: CheckoutDensity;
	/** The checkout's address; by default the origin `embed.js` was loaded from. */
	apiBase?: string;
	/** The `clientToken.token` your server got when it created the order with the secret key: pays that order. */
	clientToken?: string;
	/** A customer session your server opened (`POST /checkout/customers/sessions`): saved cards, and saving one. */
	customerSession?: string;
	onSuccess?: (event: CheckoutSuccessEvent) => void;
	onError?: (event: CheckoutErrorEvent) => void;
	onClose?: (event: CheckoutCloseEvent) => void;
}
/**
 * How a modal checkout ended: `success` as soon as the order is paid (the dialog stays open on the receipt until
 * the customer closes it), `closed` when the customer closed it without paying. Verify the order on your server
 * (`POST /checkout/order/verify`) before fulfilling it.
 */
export interface CheckoutResult {
	outcome: "success" | "closed";
	reference: string | null;
	status: CheckoutStatus | null;
}
/** `window.Checkout`. */
export interface CheckoutGlobal {
	/** Opens the checkout in a modal dialog; rejects with a `CheckoutEmbedError` when it cannot be shown at all. */
	open(options: CheckoutOptions): Promise<CheckoutResult>;
}
/** The options of the gateway's own front-end integration, accepted as they are. */
export interface PaymentCheckoutOptions {
	apiKey: string;
	/** Accepted for compatibility and not needed: the checkout encrypts with the keys the service publishes. */
	encryptionKey?: string;
	/** In major units, never minor: `2500` with `NGN` is NGN 2,500.00. */
	amount: number | string;
	currency?: string;
	email?: string;
	firstName?: string;
	lastName?: string;
	mobile?: string;
	country?: string;
	/** The order reference, when `merchantReference` is not given. */
	reference?: string;
	/** Your order reference; wins over `reference`. */
	merchantReference?: string;
	description?: string;
	/** Once: `successful` when the order is paid, or `failed` when the customer closes after a final failure. */
	onCompleted?: (result: {
		status: "successful" | "failed";
		reference: string;
	}) => void;
	onClose?: () => void;
}
declare global {
	interface Window {
		Checkout?: CheckoutGlobal;
		CheckoutNS?: {
			PaymentCheckout: typeof PaymentCheckout;
		};
	}
	interface HTMLElementTagNameMap {
		"checkout-widget": CheckoutWidgetElement;
	}
}
/** Why a checkout could not be shown at all (`Checkout.open` rejects with it; the element fires `checkout:error`). */
export declare class CheckoutEmbedError extends Error {
	/**
	 * The envelope code (`AUTH403` for an origin the merchant did not allow, `AUTH401`, …), `CSP` (this page's
	 * Content-Security-Policy kept the checkout out), or `TIMEOUT` (the frame never started).
	 */
	readonly code: string;
	constructor(
	/**
	 * The envelope code (`AUTH403` for an origin the merchant did not allow, `AUTH401`, …), `CSP` (this page's
	 * Content-Security-Policy kept the checkout out), or `TIMEOUT` (the frame never started).
	 */
	code: string, message: string);
}

export {};
