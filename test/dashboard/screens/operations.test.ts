import { expect } from 'chai';
import type { DashApp } from '../../../dashboard/components/app.ts';
import { expectAccessible } from '../../widget/support/axe.ts';
import { fakeSession, orderPage, ORDERS } from '../support/fixtures.ts';
import { FetchStub, mountApp, screenOf, textOf, unmount, waitFor } from '../support/harness.ts';
import { operationsAnswer, OWNER, SUPPORT } from '../support/operations-fixtures.ts';

/**
 * The operations screens (issue 32 items 5 to 8) in the real shell, with `fetch` answered by fixtures the contract's
 * schemas check: what a merchant sees, what each control sends, the step-up when the server asks one, and axe-core
 * in light and dark.
 */
describe('the payment links, subscriptions, customers, developers, settings, team and audit screens', () => {
  let app: DashApp | undefined;
  let api: FetchStub;
  /** The server's answer to the next change: a step-up refusal once, when a test says so. */
  let refuseOnceWithStepUp = false;

  const method = () => String(api.requests.at(-1)?.init?.method ?? 'GET');
  const sent = (pathEnd: string, verb = 'POST') => api.requests.filter((request) => request.init?.method === verb && request.url.pathname.endsWith(pathEnd));

  beforeEach(() => {
    refuseOnceWithStepUp = false;
    api = new FetchStub((url) => {
      const verb = method();
      if (refuseOnceWithStepUp && verb !== 'GET' && !url.pathname.endsWith('/step-up')) {
        refuseOnceWithStepUp = false;
        return { status: 403, body: { status: 'failed', statusCode: 'AUTH403', message: 'Confirm it is you.', reason: 'step_up_required' } };
      }
      return operationsAnswer(verb, url) ?? { body: orderPage(ORDERS) };
    });
  });
  afterEach(() => {
    unmount(app);
    api.restore();
  });

  it('shows the nav entries the member’s permissions allow, and no others', async () => {
    app = await mountApp({ hash: '#/links', session: fakeSession(OWNER) });
    await screenOf(app, 'dash-links');
    const names = () => [...app!.shadowRoot!.querySelectorAll('nav a')].map((link) => link.textContent?.trim());
    expect(names()).to.deep.equal(['Home', 'Payments', 'Payment links', 'Subscriptions', 'Customers', 'Developers', 'Settings', 'Team', 'Audit log']);
    unmount(app);
    app = await mountApp({ hash: '#/customers', session: fakeSession(SUPPORT) });
    await screenOf(app, 'dash-customers');
    expect(names()).to.not.include('Team').and.not.include('Audit log');
  });

  it('lists payment links and builds a new one, checked field by field, with a live preview', async () => {
    app = await mountApp({ hash: '#/links', session: fakeSession(OWNER) });
    const screen = await screenOf(app, 'dash-links');
    await waitFor(() => screen.querySelector('[data-reference=Zk3vQm9sT1]'), 'the list');
    expect(textOf(screen)).to.include('Spring concert tickets').and.include('37 / 200').and.include('Customer chooses').and.include('Disabled');
    [...screen.querySelectorAll('button')].find((button) => button.textContent?.includes('New payment link'))!.click();
    const builder = await waitFor(() => screen.querySelector('dash-link-builder')?.shadowRoot, 'the builder');
    builder.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await waitFor(() => builder.querySelector('#name-error'), 'the errors');
    expect(builder.activeElement?.id).to.equal('name');
    const type = (id: string, value: string) => {
      const input = builder.querySelector<HTMLInputElement>(`#${id}`)!;
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    type('name', 'Gym membership');
    type('description', 'Monthly');
    builder.querySelector<HTMLInputElement>('input[name=type][value=SUB]')!.click();
    type('amount', '20000');
    await waitFor(() => builder.querySelector('#frequency'), 'the plan fields');
    expect(textOf(builder.querySelector('.preview')!)).to.include('Gym membership').and.match(/20,000\.00/).and.include('Monthly');
    builder.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await waitFor(() => sent('/checkout/payment-links').length === 1, 'the create call');
    const body = JSON.parse(String(sent('/checkout/payment-links')[0]!.init!.body));
    expect(body).to.deep.include({ Name: 'Gym membership', PaymentType: 'SUB', Amount: '20000', FrequencyId: 6, Currency: 'NGN' });
  });

  it("shows a link's address, QR code, share buttons, hosted page and payments, and disables it", async () => {
    app = await mountApp({ hash: '#/links/Zk3vQm9sT1', session: fakeSession(OWNER) });
    const screen = await screenOf(app, 'dash-link');
    await waitFor(() => screen.querySelector('dash-qr-code')?.shadowRoot?.querySelector('svg path'), 'the QR code');
    expect(screen.querySelector('a[href^="https://wa.me/?text="]')).to.exist;
    expect(screen.querySelector('a[href^="mailto:"]')).to.exist;
    const frame = screen.querySelector('iframe')!;
    expect(frame.getAttribute('src')).to.equal('/l/Zk3vQm9sT1');
    expect(frame.getAttribute('sandbox')).to.equal('allow-same-origin');
    await waitFor(() => textOf(screen).includes('ORD-1001'), 'the payments');
    [...screen.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'Disable')!.click();
    await waitFor(() => sent('/disable').length === 1, 'the disable call');
    await waitFor(() => textOf(screen).includes('Activate'), 'the new state');
  });

  it('cancels a subscription after confirming, proving a second factor when the server asks', async () => {
    const session = fakeSession(OWNER);
    app = await mountApp({ hash: '#/subscriptions', session });
    const screen = await screenOf(app, 'dash-subscriptions');
    const row = await waitFor(() => screen.querySelector('[data-subscription="41"]'), 'the list');
    expect(textOf(row)).to.include('Ada Obi').and.include('Active').and.include('× 12').and.include('4');
    expect(screen.querySelector('[data-subscription="43"] button')).to.equal(null);
    row.querySelector('button')!.click();
    refuseOnceWithStepUp = true;
    (await waitFor(() => [...row.querySelectorAll('button')].find((button) => button.textContent?.includes('Yes, cancel')), 'the confirmation')).click();
    const dialog = await waitFor(() => screen.querySelector('dash-step-up')?.shadowRoot?.querySelector('dialog[open]'), 'the step-up dialog');
    const code = dialog.querySelector<HTMLInputElement>('#step-up-code')!;
    code.value = '123456';
    dialog.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await waitFor(() => sent('/41/cancel').length === 2, 'the cancel call again');
    // The step-up goes through the session, which keeps the new CSRF token (api/team-session.ts).
    expect(session.calls).to.include('step-up totp');
    expect((dialog as HTMLDialogElement).open).to.equal(false);
  });

  it("shows a customer's orders, subscriptions and saved cards, and revokes a card", async () => {
    app = await mountApp({ hash: '#/customers/cus_ada', session: fakeSession(OWNER) });
    const screen = await screenOf(app, 'dash-customer');
    const card = await waitFor(() => screen.querySelector('[data-card=card_12]'), 'the cards');
    expect(textOf(screen)).to.include('ORD-1001').and.include('SUB-41');
    card.querySelector('button')!.click();
    (await waitFor(() => [...card.querySelectorAll('button')].find((button) => button.textContent?.includes('Yes, revoke')), 'the confirmation')).click();
    await waitFor(() => sent('/checkout/customers/cus_ada/cards/card_12', 'DELETE').length === 1, 'the revoke call');
  });

  it('shows keys, origins, webhook endpoints and a delivery’s request and response, with the failed-only filter', async () => {
    app = await mountApp({ hash: '#/developers', session: fakeSession(OWNER) });
    const screen = await screenOf(app, 'dash-developers');
    await waitFor(() => textOf(screen).includes('pk_test_4eC39HqLyjWDarjtT1zdp7dc'), 'the keys');
    expect(textOf(screen)).to.include('https://shop.acme.test').and.include('Test transfers');
    const hooks = await waitFor(() => screen.querySelector('dash-webhook-endpoints')?.shadowRoot, 'the webhooks');
    const endpoint = await waitFor(() => hooks.querySelector('[data-endpoint=we_AAAAAAAAAAAAAAAAAAAAAA]'), 'the endpoints');
    [...endpoint.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'Deliveries')!.click();
    await waitFor(() => hooks.querySelector('[data-delivery]'), 'the deliveries');
    expect(textOf(hooks)).to.include('HTTP 500').and.include('No answer within 10 seconds.').and.include('"type":"order.successful"');
    hooks.querySelector<HTMLInputElement>('#failed-only')!.click();
    await waitFor(() => api.last.searchParams.get('status') === 'failed', 'the failed-only query');
    await waitFor(() => hooks.querySelectorAll('[data-delivery]').length === 1, 'one failed delivery');
    [...endpoint.querySelectorAll('button')].find((button) => button.textContent?.includes('Rotate the secret'))!.click();
    await waitFor(() => textOf(hooks).includes('whsec_new-secret-shown-once'), 'the new secret, once');
    expect(JSON.parse(String(sent('/rotate-secret')[0]!.init!.body))).to.deep.equal({ overlapHours: 24 });
  });

  it('previews the brand colour and saves the settings', async () => {
    app = await mountApp({ hash: '#/settings', session: fakeSession(OWNER) });
    const screen = await screenOf(app, 'dash-settings');
    const colour = await waitFor(() => screen.querySelector<HTMLInputElement>('#brandColor'), 'the form');
    colour.value = '#b91c1c';
    colour.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await waitFor(() => screen.querySelector('svg.pay rect')?.getAttribute('fill') === '#b91c1c', 'the preview');
    expect(screen.querySelector('svg.pay text')!.getAttribute('fill')).to.equal('#ffffff');
    screen.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await waitFor(() => sent('/checkout/settings', 'PATCH').length === 1, 'the save');
    expect(JSON.parse(String(sent('/checkout/settings', 'PATCH')[0]!.init!.body))).to.deep.include({ brandColor: '#b91c1c', name: 'Acme Stores' });
  });

  it('shows the team with two-factor status and last sign-in, and the audit log filtered by action', async () => {
    app = await mountApp({ hash: '#/team', session: fakeSession(OWNER) });
    const team = await screenOf(app, 'dash-team');
    await waitFor(() => team.querySelector('[data-member="3"]'), 'the members');
    expect(textOf(team)).to.include('Authenticator app, 1 passkey').and.include('Invited').and.include('Never');
    unmount(app);
    app = await mountApp({ hash: '#/audit', session: fakeSession(OWNER) });
    const audit = await screenOf(app, 'dash-audit');
    await waitFor(() => textOf(audit).includes('203.0.113.7'), 'the entries');
    const select = audit.querySelector<HTMLSelectElement>('#action')!;
    select.value = 'sign_in_failed';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => audit.querySelectorAll('tbody tr').length === 1, 'one entry');
    expect(textOf(audit.querySelector('tbody')!)).to.include('unknown@acme.test').and.include('192.0.2.55');
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`passes axe on every operations screen in ${theme}`, async () => {
      const screens = [
        ['#/links', 'dash-links', '[data-reference]'],
        ['#/links/Zk3vQm9sT1', 'dash-link', 'dl'],
        ['#/subscriptions', 'dash-subscriptions', '[data-subscription]'],
        ['#/customers', 'dash-customers', '[data-customer]'],
        ['#/customers/cus_ada', 'dash-customer', '[data-card]'],
        ['#/developers', 'dash-developers', 'dash-webhook-endpoints'],
        ['#/settings', 'dash-settings', 'form'],
        ['#/team', 'dash-team', '[data-member]'],
        ['#/audit', 'dash-audit', 'tbody tr'],
      ] as const;
      for (const [hash, tag, ready] of screens) {
        app = await mountApp({ hash, session: fakeSession(OWNER), theme });
        const screen = await screenOf(app, tag);
        await waitFor(() => screen.querySelector(ready), `${tag} ready`);
        await expectAccessible(app);
        unmount(app);
        app = undefined;
      }
    });
  }
});
