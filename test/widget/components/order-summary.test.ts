import { expect } from 'chai';
import type { CkOrderSummary } from '../../../widget/components/order-summary.ts';
import '../../../widget/components/order-summary.ts';
import { Localizer } from '../../../widget/i18n/localizer.ts';
import { expectAccessible } from '../support/axe.ts';
import { deepQueryAll, deepText } from '../support/dom.ts';
import { orderData } from '../support/fixtures.ts';

describe('ck-order-summary', () => {
  let summary: CkOrderSummary;

  async function mount(locale: string): Promise<CkOrderSummary> {
    summary = document.createElement('ck-order-summary');
    summary.order = orderData();
    summary.localizer = await Localizer.load(locale);
    document.body.append(summary);
    await summary.updateComplete;
    return summary;
  }

  afterEach(() => summary.remove());

  it('lists each line item and the subtotal in the order currency', async () => {
    await mount('en-NG');
    const rows = deepQueryAll(summary.shadowRoot!, 'li').map((row) => deepText(row));
    expect(rows).to.deep.equal(['Things Fall Apart ₦8,000.00', 'Gift wrapping ₦4,500.00']);
    expect(deepText(summary.shadowRoot!)).to.include('Subtotal ₦12,500.00');
    expect(deepText(summary.shadowRoot!)).to.include('Order ORD-1001');
    await expectAccessible(summary);
  });

  it('lists no made-up line for an order without items, and shows its description instead, in any language', async () => {
    for (const locale of ['en-NG', 'fr-FR']) {
      summary = document.createElement('ck-order-summary');
      const order = orderData();
      order.subsidiaryOrderSummary.orderItems = [{ name: 'Summary', amount: order.subsidiaryOrderSummary.totalAmount }];
      order.order.narration = 'Deux livres';
      summary.order = order;
      summary.itemised = false;
      summary.localizer = await Localizer.load(locale);
      document.body.append(summary);
      await summary.updateComplete;
      const text = deepText(summary.shadowRoot!);
      expect(text).not.to.include('Summary');
      expect(deepQueryAll(summary.shadowRoot!, 'li')).to.have.length(0);
      expect(text).to.include('Deux livres');
      await expectAccessible(summary);
      summary.remove();
    }
  });

  it('formats amounts the French way for a French customer', async () => {
    await mount('fr-FR');
    const text = deepText(summary.shadowRoot!);
    expect(text).to.match(/Sous-total 12\s500,00\sNGN/);
    expect(text).to.include('Commande ORD-1001');
  });

  it('says the plan of an order that starts a subscription, in English and French, and nothing for a one-off order', async () => {
    await mount('en-NG');
    expect(summary.shadowRoot!.querySelector('[data-testid="plan"]')).to.equal(null);
    summary.remove();
    for (const [locale, words] of [
      ['en-NG', /^Subscription: ₦12,500\.00 every month, 6 payments, next on \d{1,2} [A-Z][a-z]+ \d{4}$/],
      ['fr-FR', /^Abonnement : 12\s500,00\sNGN tous les mois, 6 paiements, prochain le \d{1,2} [a-zéû]+\.? \d{4}$/u],
    ] as const) {
      summary = document.createElement('ck-order-summary');
      const order = orderData();
      order.order.frequencyId = 6;
      order.order.numberOfPayments = 6;
      summary.order = order;
      summary.localizer = await Localizer.load(locale);
      document.body.append(summary);
      await summary.updateComplete;
      expect(deepText(summary.shadowRoot!.querySelector('[data-testid="plan"]')!).replace(/\s+/gu, ' ')).to.match(words);
      await expectAccessible(summary);
      summary.remove();
    }
    summary = document.createElement('ck-order-summary');
  });
});
