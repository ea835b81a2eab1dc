import { Task } from '@lit/task';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CreateOrderPlain } from '../../shared/orders.ts';
import { ApiError, CheckoutApi, type WidgetEventName } from '../api/client.ts';
import type { BankTransferDetails, CreateOrderData, FeeQuote, OrderStatusResponse, ResumeOrderData } from '../api/wire.ts';
import {
  CheckoutCloseEvent,
  CheckoutErrorEvent,
  CheckoutPendingEvent,
  CheckoutReadyEvent,
  CheckoutSuccessEvent,
  STATUS_NAMES,
  type CheckoutStatus,
} from '../events.ts';
import type { Localizer, MessageKey } from '../i18n/localizer.ts';
import type { CustomerDetails, CustomerField } from '../internal-events.ts';
import { backoffDelay, sleep, type BackoffOptions } from './backoff.ts';
import { SUPPORTED_OPTIONS } from '../components/payment-options.ts';
import { describeDecline, describeError, isApiError, isRetryable } from './errors.ts';
import { outcomeOf, type PaymentOutcome } from './outcome.ts';
import { takeFirstOrder } from './first-state.ts';
import { loadSession, saveSession, type CheckoutSession } from './session.ts';
import { EXPIRED_TRANSFER_CODE, meaningOf, type StatusMeaning } from './status.ts';

export type CheckoutView = 'loading' | 'details' | 'options' | 'card' | 'authenticating' | 'transfer' | 'success' | 'failure' | 'expired' | 'error';
export const VIEWS: readonly CheckoutView[] = ['loading', 'details', 'options', 'card', 'authenticating', 'transfer', 'success', 'failure', 'expired', 'error'];

/** `confirm`: the customer waits for the answer; `watch`: an open transfer account is checked quietly. */
type PollMode = 'confirm' | 'watch';

export type Paid = Omit<Extract<StatusMeaning, { kind: 'paid' }>, 'kind'>;

/** What the flow needs from the element that hosts it: its settings and how to leave for 3-D Secure. */
export interface CheckoutFlowHost extends ReactiveControllerHost, EventTarget {
  apiKey: string;
  apiBase: string;
  clientToken: string;
  customerSession: string;
  /** The merchant's public keys as JSON, when the page serving the checkout provides them. */
  encryptionKeys: string;
  /** The frame session token, when the checkout is a merchant's frame (set by the frame bridge). */
  frameSession: string;
  /** The settings come from the embedding page: until they do, the checkout waits instead of reporting them missing. */
  embedded: boolean;
  reference: string;
  amount: number | undefined;
  currency: string;
  customerFirstName: string;
  customerLastName: string;
  customerEmail: string;
  customerMobile: string;
  customerCountry: string;
  localizer: Localizer;
  pollBackoff: BackoffOptions;
  /** How often an open transfer account is watched for money arriving, before the customer says they sent it. */
  transferBackoff: BackoffOptions;
  redirect: (url: string) => void;
  orderPlain(returnUrl: string): CreateOrderPlain;
}

/** Query parameters the hosted 3-D Secure page adds when it sends the customer back (protocol.md 4.3). */
const RETURN_PARAMETERS = ['reference', 'status'];

/** The card and transfer views are separate chunks, fetched while the customer reads the first screen. */
export const loadCardForm = () => import('../components/card-form.ts');
export const loadTransferDetails = () => import('../components/transfer-details.ts');
/** Only for a merchant who opens the checkout without the customer's details. */
export const loadCustomerForm = () => import('../components/customer-form.ts');

/**
 * The order flow behind `<ck-checkout>`: create the order or resume it, get a transfer account, read what pay and
 * status answers mean, poll until a final state, remember enough in sessionStorage to resume, fire the public
 * events and track the widget's steps. It decides which single view is shown; the element only draws it.
 */
export class CheckoutFlow implements ReactiveController {
  view: CheckoutView = 'loading';
  api: CheckoutApi | undefined;
  order: CreateOrderData | undefined;
  option = '';
  quotes: Record<string, FeeQuote> = {};
  transfer: BankTransferDetails | undefined;
  amountDue: number | undefined;
  /** What reached an account before it expired: the customer is told it is recorded for refund. */
  receivedBeforeExpiry = 0;
  waiting = false;
  failure: { code: string; message: string } | undefined;
  error: unknown;
  /** Why the last request for a transfer account failed (shown beside the button that asked). */
  transferError: unknown;
  paid: Paid | undefined;
  authUrl: string | undefined;
  /**
   * Where a card payment's 3-D Secure stands: `started` (leaving for the bank's page now), `interrupted` (this
   * page reloaded while the bank's page was open: offer to go back to it), `checking` (back from the bank).
   */
  authStage: 'started' | 'interrupted' | 'checking' = 'checking';
  /** A message for the options screen, such as a 3-D Secure the bank did not confirm; announced. */
  notice: MessageKey | undefined;
  /** The customer's details the checkout asks for (the `details` view), because the merchant did not give them. */
  detailsAsked: CustomerField[] = [];
  /**
   * What the customer typed there. Kept for the life of the element, so a retry after a failed create, or the next
   * order in the same page, does not ask again.
   */
  customer: CustomerDetails = {};
  /** What the payment waiting for the bank or a transfer charges, fee included, from the status answer. */
  pendingCharge: number | undefined;
  /** The name on the card of the last attempt, for the card form of the next one. */
  cardHolder = '';
  /** Set when a view change should move focus to the new view's heading (not on the first screen). */
  focusRequested = false;

  #reference = '';
  #readySent = false;
  #returning = false;
  /** A resume started by "Try again", ended when another order starts. */
  #retrying: AbortController | undefined;

  readonly startTask: Task<readonly unknown[], void>;
  readonly transferTask: Task<[], void>;
  readonly pollTask: Task<[string, PollMode], OrderStatusResponse>;

  constructor(private readonly host: CheckoutFlowHost) {
    host.addController(this);
    this.startTask = new Task(host, {
      args: () => [host.apiKey, host.apiBase, host.clientToken, host.customerSession, host.reference, host.amount, host.currency, host.embedded] as const,
      task: async (_args, { signal }) => this.#start(signal),
    });
    this.transferTask = new Task(host, {
      autoRun: false,
      task: async (_args: [], { signal }) => {
        this.transferError = undefined;
        try {
          if (!this.api) throw new ApiError('AUTH401', 'The checkout is not configured.');
          const answer = await this.api.pay({ reference: this.#reference, paymentoption: 'bank-transfer', country: this.#country() }, signal);
          signal.throwIfAborted();
          this.#handleOutcome(outcomeOf(answer));
        } catch (error) {
          if (!signal.aborted) this.transferError = error;
          throw error;
        }
      },
    });
    this.pollTask = new Task(host, {
      autoRun: false,
      task: async ([reference, mode]: [string, PollMode], { signal }) => this.#poll(reference, mode, signal),
    });
  }

  hostDisconnected(): void {
    this.pollTask.abort();
  }

  get busy(): boolean {
    return this.startTask.status === 1 || this.requestingAccount;
  }

  /** A transfer account is being asked for: its button keeps focus and does nothing meanwhile. */
  get requestingAccount(): boolean {
    return this.transferTask.status === 1;
  }

  get merchant(): string {
    return this.order?.subsidiary.name ?? this.host.localizer.t('theMerchant');
  }

  get optionCount(): number {
    return (this.order?.otherPaymentOptions ?? []).filter((option) => SUPPORTED_OPTIONS.includes(option.code)).length;
  }

  /** Nothing has arrived yet on the transfer account, so the customer may still pay another way. */
  get nothingReceived(): boolean {
    if (!this.transfer) return true;
    return (this.amountDue ?? this.transfer.amountDue) >= this.transfer.amount;
  }

  /**
   * The details the order needs that neither the merchant nor the customer has given: names and an e-mail address
   * (the order API requires them); a phone number, optional, only when the merchant gave no way to reach the customer.
   */
  get missingDetails(): CustomerField[] {
    const host = this.host;
    const given: CustomerDetails = { firstname: host.customerFirstName, lastname: host.customerLastName, email: host.customerEmail, mobile: host.customerMobile, ...this.customer };
    const missing = (['firstname', 'lastname', 'email'] as const).filter((field) => !given[field]?.trim());
    if (missing.includes('email') && !given.mobile?.trim()) return [...missing, 'mobile'];
    return missing;
  }

  /** The quote of the chosen method, for this order: the only amount the customer is asked to pay. */
  get quote(): FeeQuote | undefined {
    const quote = this.option ? this.quotes[this.option] : undefined;
    const order = this.order?.order;
    return quote && order && quote.amount === order.amount && quote.currency === order.currency ? quote : undefined;
  }

  /** What was paid; before that the quoted total (with the customer's fee) of the chosen method, or the order amount. */
  get totalToPay(): number | undefined {
    return (
      this.paid?.amount ??
      this.quote?.totalChargedAmount ??
      this.pendingCharge ??
      this.order?.order.amount ??
      (this.view === 'details' ? this.host.amount : undefined)
    );
  }

  /** The customer filled in the details form: make the order with them. */
  submitDetails(details: CustomerDetails): void {
    if (this.view !== 'details') return;
    this.customer = { ...this.customer, ...details };
    this.#show('loading', false);
    const controller = new AbortController();
    this.#retrying = controller;
    this.#create(controller.signal).catch((error: unknown) => {
      if (!controller.signal.aborted) this.#fail(error);
    });
  }

  // Actions the element wires to what the customer does.

  selectOption(code: string): void {
    this.option = code;
    this.notice = undefined;
    this.#save();
    void this.#track('option-selected', { option: code });
    this.host.requestUpdate();
  }

  quoted(quote: FeeQuote): void {
    this.quotes = { ...this.quotes, [quote.paymentOption]: quote };
    this.host.requestUpdate();
  }

  async continue(): Promise<void> {
    // Without the quote the amount charged is not known: nothing goes on until it is. Nor while an account is asked for.
    if (!this.quote || this.requestingAccount) return;
    if (this.option === 'C') {
      await loadCardForm();
      this.#show('card');
    } else if (this.option === 'bank-transfer') {
      void this.transferTask.run([]);
    }
  }

  cardOutcome(outcome: PaymentOutcome, holderName = ''): void {
    // An answer for a card form no longer shown (another order started meanwhile) is not this order's.
    if (this.view !== 'card') return;
    this.cardHolder = holderName;
    void this.#track('card-submitted');
    this.#handleOutcome(outcome);
  }

  /**
   * "I have sent the money", or the account's countdown reached zero: ask the server at once, then until it decides.
   * The account is watched anyway (see `#watchTransfer`); the button only makes the next question come sooner.
   */
  transferSent(): void {
    this.waiting = true;
    this.#save();
    void this.pollTask.run([this.#reference, 'confirm']);
    this.host.requestUpdate();
  }

  /** While an account is open the checkout notices the money by itself: docs/decisions.md, "Noticing a transfer". */
  #watchTransfer(): void {
    if (this.pollTask.status !== 1) void this.pollTask.run([this.#reference, this.waiting ? 'confirm' : 'watch']);
  }

  newAccount(): void {
    // The button stays focusable while the account is asked for: a second press waits for the first answer.
    if (this.requestingAccount) return;
    void this.transferTask.run([]);
  }

  retryPayment(): void {
    if (this.option === 'bank-transfer') this.newAccount();
    else this.#show('card');
  }

  chooseAnother(): void {
    this.pollTask.abort();
    this.pendingCharge = undefined;
    this.waiting = false;
    this.authUrl = undefined;
    this.#save();
    this.#show('options');
  }

  /** After a reload during 3-D Secure: back to the bank's page, the same way the first visit went there. */
  continueWithBank(): void {
    if (!this.authUrl) return;
    this.authStage = 'started';
    this.host.requestUpdate();
    void this.#track('authentication-started');
    this.host.redirect(this.authUrl);
  }

  retry(): void {
    if (this.order && this.#reference) {
      this.#show('loading', false);
      const controller = new AbortController();
      this.#retrying = controller;
      this.#resume(this.#reference, controller.signal).catch((error: unknown) => {
        if (!controller.signal.aborted) this.#fail(error);
      });
    } else {
      void this.startTask.run();
    }
  }

  close(): void {
    void this.#track('closed');
    this.host.dispatchEvent(new CheckoutCloseEvent(this.#eventInit(this.paid ? 5 : null)));
  }

  // The flow itself.

  #show(view: CheckoutView, focus = true): void {
    this.focusRequested = focus && this.#readySent;
    if (view !== 'options') this.notice = undefined;
    this.view = view;
    if (view === 'card') void loadCardForm();
    if (view === 'transfer') void loadTransferDetails();
    this.host.requestUpdate();
  }

  #country(): string | undefined {
    return this.order?.customer.country ?? (this.host.customerCountry || undefined);
  }

  #eventInit(statusId: keyof typeof STATUS_NAMES | null): { reference: string | null; status: CheckoutStatus | null } {
    return { reference: this.#reference || null, status: statusId === null ? null : STATUS_NAMES[statusId] };
  }

  #track(name: WidgetEventName, extra?: Record<string, string>): Promise<boolean> {
    return this.api && this.#reference ? this.api.track(name, this.#reference, extra) : Promise.resolve(false);
  }

  #save(): void {
    const session: CheckoutSession = {
      reference: this.#reference,
      order: this.order,
      option: this.option || undefined,
      transfer: this.transfer,
      waiting: this.waiting || undefined,
      authUrl: this.authUrl,
    };
    saveSession(session);
  }

  /** Creates the order, or resumes one after a reload or a 3-D Secure round trip. */
  async #start(signal: AbortSignal): Promise<void> {
    const host = this.host;
    this.#forget();
    this.#show('loading', false);
    try {
      if (!host.apiKey && host.embedded) return;
      if (!host.apiKey) throw new ApiError('AUTH401', 'The api-key attribute is missing.');
      this.api = new CheckoutApi({
        apiKey: host.apiKey,
        baseUrl: host.apiBase || window.location.origin,
        clientToken: host.clientToken || undefined,
        customerSession: host.customerSession || undefined,
        keys: host.encryptionKeys || undefined,
        frameSession: host.frameSession || undefined,
      });
      const returned = new URLSearchParams(window.location.search);
      const returnedReference = returned.get('reference');
      if (returnedReference) {
        window.history.replaceState(window.history.state, '', this.#returnUrl(false));
        // Only a return to this checkout's own order: an address naming another order shows this one.
        if (!host.reference || returnedReference === host.reference) {
          return await this.#resume(returnedReference, signal, returned.get('status') ?? '');
        }
      }
      if (!host.reference) throw new ApiError('VAL400', 'The reference attribute is missing.');
      const recorded = await loadSession(host.reference);
      signal.throwIfAborted();
      // A client token opens the order the merchant's server made, with its details: nothing is created or asked.
      if (recorded || host.amount === undefined || host.clientToken) {
        return await this.#resume(host.reference, signal);
      }
      // Events about this order carry its reference, also when creating it fails.
      this.#reference = host.reference;
      const missing = this.missingDetails;
      if (missing.length > 0) {
        await loadCustomerForm();
        signal.throwIfAborted();
        this.detailsAsked = missing;
        this.#show('details', false);
        return;
      }
      await this.#create(signal);
    } catch (error) {
      if (signal.aborted) throw error;
      this.#fail(error);
    }
  }

  /**
   * Without a record (a frame on another site may have no storage: browsers that block third-party storage, or a
   * new tab) the order's summary, merchant and amount are asked for again: creating the same order again returns it
   * as it is, so the receipt after 3-D Secure still names the merchant and the amount. Best effort: an order made
   * with details the customer typed before the page reloaded cannot be asked for, and is shown from its status.
   */
  async #recoverOrder(reference: string, signal: AbortSignal): Promise<CreateOrderData | undefined> {
    if (this.host.amount === undefined || reference !== this.host.reference || this.missingDetails.length > 0) return undefined;
    try {
      const plain = this.host.orderPlain(this.#returnUrl(true));
      plain.customer = { ...plain.customer, ...this.customer };
      return await this.api!.createOrder(plain, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return undefined;
    }
  }

  /** Creates the order from the host's settings and the details the customer gave; resumes it if it moved on. */
  async #create(signal: AbortSignal): Promise<void> {
    const plain = this.host.orderPlain(this.#returnUrl(true));
    plain.customer = { ...plain.customer, ...this.customer };
    this.order = takeFirstOrder(plain.order.reference) ?? (await this.api!.createOrder(plain, signal));
    signal.throwIfAborted();
    this.#reference = this.order.order.reference;
    if (this.order.order.statusId !== 1) {
      // The same order was created before (another tab, a lost answer) and has moved on: show where it is.
      this.#save();
      return await this.#resume(this.#reference, signal);
    }
    this.option = this.optionCount === 1 ? this.order.otherPaymentOptions[0]!.code : '';
    this.#save();
    this.#ready(1);
    // After the details form the customer moved on: focus goes to the summary's heading.
    this.#show('options', this.detailsAsked.length > 0);
  }

  /**
   * Everything the checkout held about the order shown before (its record stays in sessionStorage): a new order,
   * or the same one started again, begins from nothing, so no answer, amount or event of the previous one leaks in.
   */
  #forget(): void {
    this.pollTask.abort();
    this.transferTask.abort();
    this.#retrying?.abort();
    this.#retrying = undefined;
    this.#reference = '';
    this.#readySent = false;
    this.#returning = false;
    this.order = undefined;
    this.option = '';
    this.quotes = {};
    this.transfer = undefined;
    this.amountDue = undefined;
    this.receivedBeforeExpiry = 0;
    this.pendingCharge = undefined;
    this.detailsAsked = [];
    this.waiting = false;
    this.failure = undefined;
    this.error = undefined;
    this.transferError = undefined;
    this.paid = undefined;
    this.authUrl = undefined;
    this.authStage = 'checking';
    this.notice = undefined;
  }

  /** This page without the parameters the authentication page adds on the way back (and without the hash). */
  #returnUrl(withoutHash: boolean): string {
    const url = new URL(window.location.href);
    for (const name of RETURN_PARAMETERS) url.searchParams.delete(name);
    if (withoutHash) url.hash = '';
    return url.href;
  }

  /** `returnStatus` is the `status` the bank's page sent back (`successful`, `pending`, `failed`), or undefined on a reload. */
  async #resume(reference: string, signal: AbortSignal, returnStatus?: string): Promise<void> {
    const returning = returnStatus !== undefined;
    const cached = await loadSession(reference);
    signal.throwIfAborted();
    this.#reference = reference;
    // The order just created again (it had moved on) is this one, also when no record could be kept.
    this.order = cached?.order ?? (this.order?.order.reference === reference ? this.order : undefined);
    this.option = cached?.option ?? '';
    this.transfer = cached?.transfer;
    this.waiting = cached?.waiting ?? false;
    this.authUrl = cached?.authUrl;
    this.#returning = returning;
    // The server holds the order and its payment: a frame on another site has no storage to keep them in.
    if (this.api!.canResume) this.#adopt(await this.api!.resumeOrder(reference, signal));
    signal.throwIfAborted();
    if (!this.order) this.order = await this.#recoverOrder(reference, signal);
    const status = await this.api!.orderStatus(reference, signal);
    signal.throwIfAborted();
    if (returning) void this.#track('authentication-finished');
    // The status answer has no items or methods: an unpaid order can only be shown from this tab's record.
    if (status.data.payment_status === 1 && !this.order) throw new ApiError('NF404', 'The order details are not available here.');
    this.#ready(status.data.payment_status);
    const meaning = meaningOf(status.data);
    if (returning && (meaning.kind === 'unpaid' || (returnStatus === 'failed' && meaning.kind === 'awaiting-authentication'))) {
      // The customer cancelled on the bank's page, or the bank said no without a decline: say so on the options.
      this.authUrl = undefined;
      this.#save();
      this.#show('options');
      this.notice = 'authCancelled';
      return;
    }
    const final = this.#applyStatus(status);
    if (!final && status.data.payment_status === 2) {
      if (this.view === 'transfer') this.#watchTransfer();
      else if (this.view === 'authenticating' || this.waiting) void this.pollTask.run([reference, 'confirm']);
    }
  }

  /**
   * What the server says of the order and its latest attempt replaces the record: the bank's page of a card payment
   * awaiting authentication (offered again), the account of an open transfer (shown again, the same one).
   */
  #adopt({ order, payment }: ResumeOrderData): void {
    this.order = order;
    const latest = payment ? outcomeOf(payment) : undefined;
    if (latest?.kind === 'transfer') {
      this.transfer = latest.details;
      this.option = 'bank-transfer';
    } else if (latest?.kind === 'authenticate' || latest?.kind === 'confirming') {
      this.authUrl = latest.kind === 'authenticate' ? latest.redirectUrl : undefined;
      this.option = 'C';
    } else if (payment) {
      // A settled attempt (a declined card, an expired account) still says the method chosen: trying again keeps it.
      this.option = payment.data.bankTransferDetails ? 'bank-transfer' : 'C';
    } else if (!this.option && this.optionCount === 1) {
      this.option = order.otherPaymentOptions[0]!.code;
    }
  }

  #ready(statusId: keyof typeof STATUS_NAMES): void {
    if (this.#readySent) return;
    this.#readySent = true;
    setTimeout(() => void Promise.all([loadCardForm(), loadTransferDetails()]).catch(() => undefined), 0);
    this.host.dispatchEvent(new CheckoutReadyEvent(this.#eventInit(statusId)));
    void this.#track('opened');
  }

  /** Shows what a status answer means; true when it is final. */
  #applyStatus(answer: OrderStatusResponse): boolean {
    const meaning = meaningOf(answer.data);
    // After a reload no quote is known: the header shows what the pending payment charges, not the order amount.
    this.pendingCharge = answer.data.payment_status === 2 ? answer.data.total_charged_amount : undefined;
    switch (meaning.kind) {
      case 'paid':
        this.#succeed(meaning);
        return true;
      case 'expired':
        this.receivedBeforeExpiry = meaning.received;
        this.waiting = false;
        this.#save();
        this.#show('expired');
        this.host.dispatchEvent(new CheckoutErrorEvent(this.#eventInit(4), EXPIRED_TRANSFER_CODE, meaning.message));
        return true;
      case 'declined':
        this.#decline(meaning.code, describeDecline(meaning.code, this.host.localizer), 4);
        return true;
      case 'reversed':
        this.#decline(meaning.code, this.host.localizer.t('reversed', { merchant: this.merchant }), 6);
        return true;
      case 'awaiting-transfer':
        this.amountDue = meaning.amountDue;
        // Without the account details (another tab opened it) there is nothing to show but the wait.
        if (!this.transfer) this.#showWaiting();
        else if (this.view !== 'transfer') this.#show('transfer');
        else this.host.requestUpdate();
        return false;
      case 'awaiting-authentication':
        this.#showWaiting();
        return false;
      case 'unpaid':
        if (this.view !== 'options') this.#show('options');
        return false;
    }
  }

  /** The bank has the next move (3-D Secure, or a transfer opened elsewhere): show that the checkout is checking. */
  #showWaiting(): void {
    if (this.view === 'authenticating') return;
    // After a reload with the bank's page still to finish, offer it again; back from the bank, check.
    this.authStage = this.authUrl && !this.#returning ? 'interrupted' : 'checking';
    this.#show('authenticating');
  }

  /**
   * `confirm`: the customer is waiting for an answer (back from the bank, or the money is said to be sent): ask now,
   * then with the status backoff, and give up with the error view after five failures in a row. `watch`: an open
   * transfer account, watched quietly every few seconds; it waits before its first question (the account is new),
   * and a failure that may pass never replaces the account details the customer is reading.
   */
  async #poll(reference: string, mode: PollMode, signal: AbortSignal): Promise<OrderStatusResponse> {
    const backoff = mode === 'watch' ? this.host.transferBackoff : this.host.pollBackoff;
    if (mode === 'watch') await sleep(backoffDelay(0, backoff), signal);
    let failures = 0;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const status = await this.api!.orderStatus(reference, signal);
        // The customer may have chosen another method while the answer was on its way: it is no longer theirs to see.
        signal.throwIfAborted();
        failures = 0;
        if (this.#applyStatus(status)) return status;
      } catch (error) {
        if (signal.aborted) throw error;
        failures += 1;
        if ((mode === 'confirm' && failures >= 5) || !isRetryable(error)) {
          this.#fail(error);
          throw error;
        }
      }
      await sleep(backoffDelay(attempt, backoff), signal);
    }
  }

  #handleOutcome(outcome: PaymentOutcome): void {
    switch (outcome.kind) {
      case 'paid':
        this.#succeed({ amount: outcome.amount, currency: outcome.currency, reference: this.#reference, confirmedAt: null, excess: 0 });
        return;
      case 'authenticate':
        this.authUrl = outcome.redirectUrl;
        this.authStage = 'started';
        this.option = 'C';
        this.#save();
        this.#show('authenticating');
        this.host.dispatchEvent(new CheckoutPendingEvent(this.#eventInit(2), 'card'));
        // The tracking call is sent with keepalive, so it finishes while the page leaves.
        void this.#track('authentication-started');
        this.host.redirect(outcome.redirectUrl);
        return;
      case 'transfer':
        this.transfer = outcome.details;
        this.amountDue = outcome.details.amountDue;
        this.option = 'bank-transfer';
        this.waiting = false;
        this.#save();
        this.#show('transfer');
        this.host.dispatchEvent(new CheckoutPendingEvent(this.#eventInit(2), 'bank-transfer'));
        void this.#track('transfer-shown');
        this.#watchTransfer();
        return;
      case 'confirming':
        this.option = 'C';
        this.authStage = 'checking';
        this.#save();
        this.#show('authenticating');
        this.host.dispatchEvent(new CheckoutPendingEvent(this.#eventInit(2), 'card'));
        void this.pollTask.run([this.#reference, 'confirm']);
        return;
      case 'declined':
        this.#decline(outcome.code, describeDecline(outcome.code, this.host.localizer), 4);
    }
  }

  #succeed(paid: Paid): void {
    this.pollTask.abort();
    this.paid = paid;
    this.waiting = false;
    this.authUrl = undefined;
    this.#save();
    this.#show('success');
    this.host.dispatchEvent(new CheckoutSuccessEvent(this.#eventInit(5)));
  }

  #decline(code: string, message: string, statusId: 4 | 6): void {
    this.failure = { code, message };
    this.waiting = false;
    this.authUrl = undefined;
    this.#save();
    this.#show('failure');
    this.host.dispatchEvent(new CheckoutErrorEvent(this.#eventInit(statusId), code, message));
  }

  #fail(error: unknown): void {
    this.error = error;
    this.#show('error');
    const code = isApiError(error) ? error.code : 'UNREADABLE';
    this.host.dispatchEvent(new CheckoutErrorEvent(this.#eventInit(null), code, describeError(error, this.host.localizer, this.merchant)));
  }
}
