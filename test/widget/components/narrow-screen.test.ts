import { expect } from 'chai';
import { setViewport } from '@web/test-runner-commands';
import type { CkCheckout } from '../../../widget/components/checkout.ts';
import '../../../widget/components/checkout.ts';
import { API_KEY, ApiStub } from '../support/api-stub.ts';
import { buttonByText, deepQuery, deepText, inputByLabel, press, waitFor } from '../support/dom.ts';
import { createOrderAnswer, feeAnswer, feeQuote, orderData, paidStatus, REFERENCE, transferAnswer, transferDetails, transferStatus } from '../support/fixtures.ts';

/**
 * WCAG 1.4.10 (reflow): on a 320 px wide screen every view, with the fee box showing and a seven-figure amount
 * in the longest currency formats ("NGN 1,234,567.89", "1 234 567,89 NGN"), fits inside the panel: nothing is cut
 * off at its right edge and nothing scrolls sideways.
 */
const AMOUNT = 1234567.89;
const CARD_FEE = 18618.52;
const TRANSFER_FEE = 6172.84;

const LOCALES = [
  { locale: 'en', words: { card: 'Card', transfer: 'Bank transfer', total: 'Total to pay', continue: 'Continue with card', change: 'Change payment method', account: 'Get account details', sent: 'I have sent the money', paid: 'Payment successful' }, money: 'NGN 1,234,567.89' },
  { locale: 'fr-FR', words: { card: 'Carte', transfer: 'Virement bancaire', total: 'Total à payer', continue: 'Continuer avec la carte', change: 'Autre moyen de paiement', account: 'Obtenir les coordonnées du compte', sent: 'J’ai envoyé l’argent', paid: 'Paiement réussi' }, money: '1 234 567,89 NGN' },
] as const;

/** Every element and text run drawn inside `root`, through shadow roots, except screen-reader-only text. */
function* drawnBoxes(root: Node): Generator<{ what: string; rect: DOMRect }> {
  for (const node of root.childNodes) {
    if (node instanceof HTMLStyleElement) continue;
    if (node instanceof Element) {
      if (node.classList.contains('visually-hidden') || getComputedStyle(node).display === 'none') continue;
      yield { what: `<${node.localName}${node.className && typeof node.className === 'string' ? `.${node.className.split(' ').join('.')}` : ''}>`, rect: node.getBoundingClientRect() };
      if (node.shadowRoot) yield* drawnBoxes(node.shadowRoot);
      if (node instanceof HTMLSlotElement) for (const assigned of node.assignedNodes({ flatten: true })) yield* drawnBoxes(assigned);
      yield* drawnBoxes(node);
    } else if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      yield { what: `"${node.textContent.trim()}"`, rect: range.getBoundingClientRect() };
    }
  }
}

describe('ck-checkout on a 320 px wide screen', () => {
  let stub: ApiStub;
  let checkout: CkCheckout;
  let page: HTMLElement;

  const root = () => checkout.shadowRoot!;
  const text = () => deepText(root());
  const view = (name: string) => waitFor(() => checkout.view === name && checkout.matches(`:state(${name})`), 5000);

  /** The checkout app page's layout: a `main` with the padding of widget/checkout.css, in a 320 px viewport. */
  async function mount(locale: string): Promise<void> {
    page = document.createElement('main');
    page.style.padding = '1rem 0.75rem';
    checkout = document.createElement('ck-checkout');
    const attributes = {
      'api-key': API_KEY,
      reference: REFERENCE,
      amount: String(AMOUNT),
      currency: 'NGN',
      'customer-email': 'ada@example.test',
      'customer-first-name': 'Ada',
      'customer-last-name': 'Obi',
      items: JSON.stringify([{ name: 'Annual subscription, all titles', amount: AMOUNT }]),
      locale,
      closable: '',
    };
    for (const [name, value] of Object.entries(attributes)) checkout.setAttribute(name, value);
    checkout.pollBackoff = { baseMs: 40, maxMs: 120, factor: 1.5 };
    checkout.redirect = () => undefined;
    page.append(checkout);
    document.body.append(page);
  }

  /** Nothing drawn passes the panel's edges, and neither the page nor any box inside the checkout scrolls sideways. */
  function expectFits(where: string): void {
    const panel = root().querySelector('.panel')!;
    const edge = panel.getBoundingClientRect();
    expect(edge.right, `${where}: the panel's right edge`).to.be.at.most(320);
    const outside = [...drawnBoxes(root())]
      .filter(({ rect }) => rect.width > 0 && (rect.right > edge.right + 0.5 || rect.left < edge.left - 0.5))
      .map(({ what, rect }) => `${what} ${Math.round(rect.left)}–${Math.round(rect.right)}`);
    expect(outside, `${where}: drawn outside the panel (${Math.round(edge.left)}–${Math.round(edge.right)})`).to.deep.equal([]);
    expect(document.documentElement.scrollWidth, `${where}: the page scrolls sideways`).to.be.at.most(320);
    const scrolling = [panel, ...deepScrollers(root())]
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => `<${element.localName}> ${element.scrollWidth} > ${element.clientWidth}`);
    expect(scrolling, `${where}: boxes wider inside than outside`).to.deep.equal([]);
    expect(brokenWords(root()), `${where}: words split across lines`).to.deep.equal([]);
  }

  /**
   * Words drawn on more than one line. A word runs between ordinary spaces and hyphens; the no-break spaces inside
   * an amount ("1 234 567,89 NGN") belong to it. Addresses and references may break anywhere and are not words.
   */
  function brokenWords(node: Node): string[] {
    const broken: string[] = [];
    for (const child of node.childNodes) {
      if (child instanceof HTMLStyleElement) continue;
      if (child instanceof Element) {
        if (getComputedStyle(child).display === 'none' || child.classList.contains('visually-hidden') || child.classList.contains('reference')) continue;
        if (child.shadowRoot) broken.push(...brokenWords(child.shadowRoot));
        broken.push(...brokenWords(child));
      } else if (child.nodeType === Node.TEXT_NODE) {
        const content = child.textContent ?? '';
        for (const match of content.matchAll(/[^ \t\n\r-]+/g)) {
          const range = document.createRange();
          range.setStart(child, match.index);
          range.setEnd(child, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  }

  function deepScrollers(node: ParentNode): Element[] {
    const found: Element[] = [];
    for (const element of node.querySelectorAll('*')) {
      const overflow = getComputedStyle(element).overflowX;
      if (overflow !== 'visible' && !element.classList.contains('visually-hidden')) found.push(element);
      if (element.shadowRoot) found.push(...deepScrollers(element.shadowRoot));
    }
    return found;
  }

  beforeEach(async () => {
    sessionStorage.clear();
    await setViewport({ width: 320, height: 640 });
    stub = await ApiStub.install();
    const order = orderData();
    stub.answer(
      '/checkout/order/create',
      {
        body: createOrderAnswer({
          ...order,
          order: { ...order.order, amount: AMOUNT },
          subsidiaryOrderSummary: { ...order.subsidiaryOrderSummary, totalAmount: AMOUNT, orderItems: [{ name: 'Annual subscription, all titles', amount: AMOUNT }] },
        }),
      },
    );
    stub.answerAlways('/checkout/order/fee', (plain) => {
      const option = (plain as { paymentoption: string }).paymentoption;
      return {
        body: feeAnswer(
          option === 'C'
            ? feeQuote('C', { amount: AMOUNT, fee: CARD_FEE, customerFee: CARD_FEE, subsidiaryFee: 0, totalChargedAmount: AMOUNT + CARD_FEE })
            : // Split: the fee box names both parts in a sentence.
              feeQuote(option, { amount: AMOUNT, fee: TRANSFER_FEE * 2, customerFee: TRANSFER_FEE, subsidiaryFee: TRANSFER_FEE, totalChargedAmount: AMOUNT + TRANSFER_FEE, bearer: 'split' }),
        ),
      };
    });
  });

  afterEach(async () => {
    expect(stub.rejected, 'payloads the backend would refuse').to.deep.equal([]);
    page?.remove();
    stub.restore();
    await setViewport({ width: 800, height: 600 });
  });

  for (const { locale, words, money } of LOCALES) {
    it(`keeps every view inside the panel with a seven-figure amount and the fee box showing (${locale})`, async () => {
      const total = AMOUNT + TRANSFER_FEE;
      const details = transferDetails({ amount: total, amountDue: total });
      stub.answer('/checkout/order/pay', { body: transferAnswer(details) });
      const status = { payment_type: 'Pay With Bank Transfer', total_charged_amount: total, fee: TRANSFER_FEE, customer_fee: TRANSFER_FEE };
      await mount(locale);
      await view('options');
      await waitFor(() => text().includes(money));
      expectFits('options');

      inputByLabel(root(), words.card).focus();
      await press('Space');
      await waitFor(() => text().includes(words.total));
      expectFits('options, card fee');

      buttonByText(root(), words.continue).focus();
      await press('Enter');
      await view('card');
      await waitFor(() => deepQuery(root(), 'ck-card-form')?.shadowRoot?.querySelector('#number'));
      expectFits('card');

      buttonByText(root(), words.change).focus();
      await press('Enter');
      await view('options');
      inputByLabel(root(), words.transfer).focus();
      await press('Space');
      await waitFor(() => deepText(deepQuery(root(), 'ck-fee-display')!).includes(words.total) && !checkout.flow.busy);
      expectFits('options, transfer fee');

      buttonByText(root(), words.account).focus();
      await press('Enter');
      await view('transfer');
      expectFits('transfer');

      // A short payment: the notice names both amounts.
      stub.answerAlways('/checkout/order/status', { body: transferStatus({ ...status, amount_due: 234567.89, amount_received: total - 234567.89 }) });
      buttonByText(root(), words.sent).focus();
      await press('Enter');
      await waitFor(() => deepQuery(root(), 'ck-transfer-details')!.matches(':state(short-paid)'));
      expectFits('transfer, short payment');

      // Paid with an excess: the receipt and the excess notice.
      stub.answerAlways('/checkout/order/status', { body: paidStatus({ ...status, amount_received: total + 1000000, excess_amount: 1000000 }) });
      await view('success');
      await waitFor(() => text().includes(words.paid));
      expectFits('success');
    });
  }
});
