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
declare class CheckoutWidgetElement extends HTMLElement {
	#private;
	static readonly observedAttributes: string[];
	/** Where the checkout lives when `api-base` is absent: the origin embed.js was loaded from. */
	static defaultApiBase: string;
	constructor();
	/** `modal` when the `mode` attribute says so, else `inline`. */
	get mode(): CheckoutMode;
	/** Where the checkout is reached: `api-base`, else the origin embed.js was loaded from. */
	get apiBase(): string;
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
export interface OrderItem {
	name: string;
	amount: number;
}
export type CheckoutMode = "inline" | "modal";
/** What `Checkout.open` takes: the order, the customer, and callbacks. */
export interface CheckoutOptions {
	/** Publishable key (`pk_test_…` or `pk_live_…`). */
	apiKey: string;
	/** Your order reference (letters, digits, `. _ ~ : -`); one is made when absent and given back in the result. */
	reference?: string;
	/** Major units (`5000`, `5800.5`). Without it, the order `reference` is resumed. */
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
	theme?: "light" | "dark" | "auto";
	/** The checkout's address; by default the origin `embed.js` was loaded from. */
	apiBase?: string;
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
	/** The envelope code (`AUTH403` for an origin the merchant did not allow, `AUTH401`, …), `NETWORK`, or `TIMEOUT` (the frame never started). */
	readonly code: string;
	constructor(
	/** The envelope code (`AUTH403` for an origin the merchant did not allow, `AUTH401`, …), `NETWORK`, or `TIMEOUT` (the frame never started). */
	code: string, message: string);
}

export {};
