import { expect } from 'chai';
import type { DashApp } from '../../../dashboard/components/app.ts';
import { expectAccessible } from '../../widget/support/axe.ts';
import { fakeSession, ORDERS, orderPage } from '../support/fixtures.ts';
import { FetchStub, mountApp, screenOf, textOf, unmount, waitFor } from '../support/harness.ts';

describe('the payments screen', () => {
  let app: DashApp | undefined;
  let api: FetchStub;

  beforeEach(() => {
    api = new FetchStub((url) => ({ body: orderPage(url.searchParams.get('cursor') ? ORDERS.slice(2) : ORDERS.slice(0, 2), url.searchParams.get('cursor') ? null : 'cursor-page-2') }));
  });
  afterEach(() => {
    unmount(app);
    api.restore();
  });

  async function open(language?: 'en' | 'fr', theme?: 'light' | 'dark'): Promise<ShadowRoot> {
    app = await mountApp({ hash: '#/payments', session: fakeSession(), ...(language ? { language } : {}), ...(theme ? { theme } : {}) });
    const screen = await screenOf(app, 'dash-payments');
    await waitFor(() => screen.querySelector('[data-reference]'), 'the first page');
    return screen;
  }

  const references = (screen: ShadowRoot) => [...screen.querySelectorAll('[data-reference]')].map((item) => item.getAttribute('data-reference'));
  const change = (element: HTMLInputElement | HTMLSelectElement) => element.dispatchEvent(new Event('change', { bubbles: true, composed: true }));

  it("lists the API's orders with their amount in each order's currency and their state in words", async () => {
    const screen = await open();
    expect(references(screen)).to.deep.equal(['ORD-1001', 'ORD-1002']);
    const first = textOf(screen.querySelector('[data-reference="ORD-1001"]')!);
    // In the browser's own English (en-US here: "NGN 12,000.00"; en-NG: "₦12,000.00").
    expect(first).to.match(/(₦|NGN\s?)12,000\.00/).and.include('Paid').and.include('Mastercard ending 4444').and.include('ada@example.test');
    expect(textOf(screen.querySelector('[data-reference="ORD-1002"]')!)).to.include('Failed');
    const request = api.requests[0]!;
    expect(request.url.pathname).to.equal('/checkout/orders');
    expect(request.init?.credentials).to.equal('same-origin');
    expect(request.url.searchParams.get('limit')).to.equal('25');
  });

  it('sends what is typed in the search box as `q`', async () => {
    const screen = await open();
    const input = screen.querySelector<HTMLInputElement>('#search')!;
    input.value = 'ada@example.test';
    screen.querySelector<HTMLFormElement>('form[role=search]')!.requestSubmit();
    await waitFor(() => api.last.searchParams.get('q') === 'ada@example.test', 'a search request');
    expect(api.last.searchParams.get('cursor')).to.equal(null);
  });

  it('sends the chosen states, method, currency, dates and amounts as the list query', async () => {
    const screen = await open();
    for (const state of ['paid', 'overpaid']) {
      const box = screen.querySelector<HTMLInputElement>(`input[name=state][value=${state}]`)!;
      box.checked = true;
      change(box);
    }
    const method = screen.querySelector<HTMLSelectElement>('#method')!;
    method.value = 'card';
    change(method);
    const currency = screen.querySelector<HTMLSelectElement>('#currency')!;
    currency.value = 'NGN';
    change(currency);
    const minimum = screen.querySelector<HTMLInputElement>('#amountMin')!;
    minimum.value = '5000.50';
    change(minimum);
    const from = screen.querySelector<HTMLInputElement>('#from')!;
    from.value = '2026-11-01';
    change(from);
    const to = screen.querySelector<HTMLInputElement>('#to')!;
    to.value = '2026-11-30';
    change(to);
    await waitFor(() => api.last.searchParams.get('to'), 'the filtered request');
    const query = api.last.searchParams;
    expect(query.get('state')).to.equal('paid,overpaid');
    expect(query.get('method')).to.equal('card');
    expect(query.get('currency')).to.equal('NGN');
    expect(query.get('amountMin')).to.equal('5000.50');
    // The merchant's own days: from local midnight of the first to local midnight after the last (exclusive).
    expect(query.get('from')).to.equal(new Date(2026, 10, 1).toISOString());
    expect(query.get('to')).to.equal(new Date(2026, 11, 1).toISOString());
  });

  it('does not send an amount that is not one, and says why under the field', async () => {
    const screen = await open();
    const count = api.requests.length;
    const minimum = screen.querySelector<HTMLInputElement>('#amountMin')!;
    minimum.value = '5,000';
    change(minimum);
    const error = await waitFor(() => screen.querySelector('#amountMin-error'), 'the amount error');
    expect(error.textContent).to.include('5000.50');
    expect(minimum.getAttribute('aria-invalid')).to.equal('true');
    expect(api.requests.length).to.equal(count);
  });

  it('asks for the next page with the cursor the API gave, and can go back to the first', async () => {
    const screen = await open();
    const next = [...screen.querySelectorAll('button')].find((button) => button.textContent?.includes('Next page'))!;
    next.click();
    await waitFor(() => references(screen).includes('ORD-1003'), 'the second page');
    expect(api.last.searchParams.get('cursor')).to.equal('cursor-page-2');
    expect(references(screen)).to.deep.equal(['ORD-1003', 'ORD-1004']);
    expect([...screen.querySelectorAll('button')].some((button) => button.textContent?.includes('Next page'))).to.equal(false);
    [...screen.querySelectorAll('button')].find((button) => button.textContent?.includes('First page'))!.click();
    await waitFor(() => references(screen).includes('ORD-1001'), 'the first page again');
    expect(api.last.searchParams.get('cursor')).to.equal(null);
  });

  it('exports the current filters: the CSV link carries them, without a page size or cursor', async () => {
    const screen = await open();
    const method = screen.querySelector<HTMLSelectElement>('#method')!;
    method.value = 'bank_transfer';
    change(method);
    const input = screen.querySelector<HTMLInputElement>('#search')!;
    input.value = '0123';
    screen.querySelector<HTMLFormElement>('form[role=search]')!.requestSubmit();
    await waitFor(() => api.last.searchParams.get('q') === '0123', 'the search');
    const link = new URL(screen.querySelector<HTMLAnchorElement>('a[download]')!.href);
    expect(link.pathname).to.equal('/checkout/orders/export');
    expect(Object.fromEntries(link.searchParams)).to.deep.equal({ q: '0123', method: 'bank_transfer' });
  });

  it('keeps a saved view in this browser and applies it again', async () => {
    const screen = await open();
    const box = screen.querySelector<HTMLInputElement>('input[name=state][value=failed]')!;
    box.checked = true;
    change(box);
    const name = screen.querySelector<HTMLInputElement>('#view-name')!;
    name.value = 'Failures';
    name.dispatchEvent(new Event('input'));
    screen.querySelector<HTMLFormElement>('form.save-view')!.requestSubmit();
    await waitFor(() => localStorage.getItem('dashboard.payments.views')?.includes('Failures'), 'the stored view');
    screen.querySelector<HTMLButtonElement>('button.link')!.click(); // clear the filters
    await waitFor(() => api.last.searchParams.get('state') === null, 'the cleared request');
    (await waitFor(() => screen.querySelector<HTMLButtonElement>('button.view'), 'the view button')).click();
    await waitFor(() => api.last.searchParams.get('state') === 'failed', "the view's request");
  });

  it('speaks French: headings, states and amounts the French way', async () => {
    const screen = await open('fr');
    expect(textOf(screen.querySelector('h1')!)).to.equal('Paiements');
    const first = textOf(screen.querySelector('[data-reference="ORD-1001"]')!);
    expect(first).to.include('Payé').and.match(/12\s000,00\sNGN/);
    expect(document.documentElement.lang).to.equal('fr');
    expect(textOf(app!.shadowRoot!.querySelector('nav')!)).to.include('Accueil');
  });

  it('sends the user to sign in when the session has ended (401)', async () => {
    await open();
    api.respond(() => ({ status: 401, body: { status: 'failed', statusCode: 'AUTH401', message: 'Sign in again.' } }));
    const screen = app!.shadowRoot!.querySelector('dash-payments')!.shadowRoot!;
    screen.querySelector<HTMLFormElement>('form[role=search]')!.requestSubmit();
    const signIn = await screenOf(app!, 'dash-sign-in');
    expect(location.hash).to.match(/^#\/sign-in\?next=/);
    expect(textOf(signIn)).to.include('Your session ended');
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`has no accessibility violations in the ${theme} theme`, async () => {
      await open(undefined, theme);
      await expectAccessible(app!);
    });
  }
});
