import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { CheckoutApi } from '../api/client.ts';
import type { CreateOrderData, FeeQuote } from '../api/wire.ts';
import { CheckoutElement } from '../base.ts';
import { apiContext, orderContext } from '../context.ts';
import { FeeQuotedEvent } from '../internal-events.ts';
import { buttons, spinner, tokens } from '../styles/shared.styles.ts';
import { feeDisplayStyles } from './fee-display.styles.ts';

/**
 * Subtotal, fee, who bears it and the total for the selected method, quoted by the server before paying. The
 * quote is the amount charged (protocol.md 4.5), so the total shown here is what the pay button says.
 */
@customElement('ck-fee-display')
export class CkFeeDisplay extends CheckoutElement {
  static override styles = [tokens, buttons, spinner, feeDisplayStyles];

  @consume({ context: apiContext, subscribe: true })
  @state()
  api: CheckoutApi | undefined;

  @consume({ context: orderContext, subscribe: true })
  @state()
  order: CreateOrderData | undefined;

  /** The payment option code to quote (`C`, `bank-transfer`). */
  @property() option = '';

  /** A quote the shell already has for this option and order: shown without asking the server again. */
  @property({ attribute: false }) quote: FeeQuote | undefined;

  readonly quoteTask = new Task(this, {
    args: () => [this.api, this.order?.order.amount, this.order?.order.currency, this.option] as const,
    task: async ([api, amount, currency, option], { signal }): Promise<FeeQuote | undefined> => {
      if (!api || amount === undefined || !currency || !option) return undefined;
      const known = this.quote;
      if (known && known.paymentOption === option && known.amount === amount && known.currency === currency) return known;
      // With the reference the server quotes from the order's own fee rules: exactly what paying will charge.
      const quote = await api.quoteFee({ amount, currency, paymentoption: option, reference: this.order?.order.reference }, signal);
      // A display taken away meanwhile (the checkout moved on, perhaps to another order) keeps its answer to itself.
      if (this.isConnected) this.dispatchEvent(new FeeQuotedEvent(quote));
      return quote;
    },
  });

  override updated(): void {
    this.setStates({ pending: this.quoteTask.status === 1 });
  }

  override render() {
    return html`
      <section aria-labelledby="fee-heading" aria-busy=${this.quoteTask.status === 1 ? 'true' : 'false'}>
        <h3 id="fee-heading" tabindex="-1">${this.t('feeHeading')}</h3>
        ${this.quoteTask.render({
          initial: () => nothing,
          pending: () =>
            html`<p class="status" role="status"><span class="spinner" aria-hidden="true"></span>${this.t('feeLoading')}</p>`,
          complete: (quote) => (quote ? this.#renderQuote(quote) : nothing),
          error: () => html`
            <p class="status failed" role="alert">${this.t('feeFailed')}</p>
            <button type="button" class="link" @click=${() => this.#retry()}>${this.t('tryAgain')}</button>
          `,
        })}
      </section>
    `;
  }

  /**
   * "Try again" goes away while the fee is worked out: focus moves first to the box's heading, which stays, so a
   * keyboard user is not sent back to the top of the page; the status and then the quote are read out from there.
   */
  #retry(): void {
    this.renderRoot.querySelector<HTMLElement>('#fee-heading')?.focus();
    void this.quoteTask.run();
  }

  /**
   * The customer's side of the fee only: the fee line is what the customer pays on top of the subtotal ("No fee"
   * when nothing), and the total is what is charged. A fee the merchant bears (all or part) is between the merchant
   * and the checkout: it changes nothing the customer pays, so it is not shown.
   */
  #renderQuote(quote: FeeQuote) {
    const money = (amount: number) => this.localizer.money(amount, quote.currency);
    return html`
      <dl>
        <div><dt>${this.t('subtotal')}</dt><dd>${money(quote.amount)}</dd></div>
        <div><dt>${this.t('fee')}</dt><dd>${quote.customerFee === 0 ? this.t('noFee') : money(quote.customerFee)}</dd></div>
        <div class="total"><dt>${this.t('total')}</dt><dd data-total>${money(quote.totalChargedAmount)}</dd></div>
      </dl>
      ${quote.customerFee > 0 ? html`<p class="bearer">${this.t('feeBorneByCustomer')}</p>` : nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-fee-display': CkFeeDisplay;
  }
}
