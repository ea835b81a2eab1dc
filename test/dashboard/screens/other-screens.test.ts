import { expect } from 'chai';
import type { DashApp } from '../../../dashboard/components/app.ts';
import { ReportsUnavailable, type ReportsSource } from '../../../dashboard/api/reports.ts';
import { expectAccessible } from '../../widget/support/axe.ts';
import { fakeSession, ME, ORDERS, orderDetailAnswer, orderPage, reportSummary } from '../support/fixtures.ts';
import { FetchStub, mountApp, screenOf, textOf, unmount, waitFor } from '../support/harness.ts';

const reports: ReportsSource = { summary: async () => reportSummary() };

describe('the shell, Home, a payment, sign-in and the invitation', () => {
  let app: DashApp | undefined;
  let api: FetchStub;

  beforeEach(() => {
    api = new FetchStub((url) => {
      const detail = /^\/checkout\/orders\/(ORD-\d+)$/.exec(url.pathname);
      const found = detail && ORDERS.find((each) => each.reference === detail[1]);
      return found ? { body: orderDetailAnswer(found) } : { body: orderPage([ORDERS[2]!]) };
    });
  });
  afterEach(() => {
    unmount(app);
    api.restore();
  });

  it('shows Home with the period figures, success by method, the volume chart and the setup checklist', async () => {
    app = await mountApp({ hash: '#/', session: fakeSession(), reports });
    const home = await screenOf(app, 'dash-home');
    await waitFor(() => home.querySelector('dash-volume-chart')?.shadowRoot?.querySelector('canvas'), 'the chart');
    const text = textOf(home);
    expect(text).to.match(/Collected (₦|NGN\s?)3,612,750\.00/);
    expect(text).to.include('Card').and.include('93%').and.include('Bank transfer').and.include('82.1%');
    expect(text).to.include('Paid orders 90%').and.include('371 of 412').and.include('Abandoned 18');
    expect(text).to.include('3 of 5 done');
    const pressed = [...home.querySelectorAll('.periods button')].map((button) => [button.textContent?.trim(), button.getAttribute('aria-pressed')]);
    expect(pressed).to.deep.equal([['Today', 'true'], ['7 days', 'false'], ['30 days', 'false']]);
  });

  it('says figures are not available while the reports endpoint is not connected', async () => {
    app = await mountApp({ hash: '#/', session: fakeSession(), reports: { summary: async () => Promise.reject(new ReportsUnavailable('no')) } });
    const home = await screenOf(app, 'dash-home');
    await waitFor(() => textOf(home).includes('Figures are not available yet.'), 'the notice');
  });

  it('marks test mode unmistakably, and the switch moves the session to live data', async () => {
    const session = fakeSession();
    app = await mountApp({ hash: '#/payments', session });
    await screenOf(app, 'dash-payments');
    const shell = app.shadowRoot!;
    expect(textOf(shell.querySelector('.test-banner')!)).to.include('Test mode');
    const toggle = shell.querySelector('dash-mode-switch')!.shadowRoot!.querySelector<HTMLButtonElement>('[role=switch]')!;
    expect(toggle.getAttribute('aria-checked')).to.equal('true');
    const before = api.requests.length;
    toggle.click();
    await waitFor(() => !shell.querySelector('.test-banner'), 'the banner to go');
    expect(session.calls).to.include('mode live');
    // The list is asked again for the other mode's payments.
    await waitFor(() => api.requests.length > before, 'the list again');
  });

  it('keeps the nav to the screens that exist, and marks the current one', async () => {
    app = await mountApp({ hash: '#/payments', session: fakeSession() });
    await screenOf(app, 'dash-payments');
    const links = [...app.shadowRoot!.querySelectorAll('nav a')].map((link) => [link.textContent?.trim(), link.getAttribute('aria-current')]);
    // ME may do everything: every screen's entry shows (operations.test.ts checks a narrower role).
    expect(links).to.deep.equal([['Home', 'false'], ['Payments', 'page'], ...['Payment links', 'Subscriptions', 'Customers', 'Developers', 'Settings', 'Team', 'Audit log'].map((name) => [name, 'false'])]);
  });

  it('shows one payment with its attempts and timeline, read by its reference', async () => {
    app = await mountApp({ hash: '#/payments/ORD-1003', session: fakeSession() });
    const screen = await screenOf(app, 'dash-payment');
    await waitFor(() => screen.querySelector('dl'), 'the details');
    expect(api.last.pathname).to.equal('/checkout/orders/ORD-1003');
    const text = textOf(screen);
    expect(text).to.include('Awaiting transfer').and.include('0123456789').and.include('Sandbox Bank');
    const timeline = await waitFor(() => screen.querySelector('dash-order-timeline')?.shadowRoot, 'the timeline');
    await waitFor(() => textOf(timeline).includes('Transfer account issued'), 'the timeline entries');
    // Nothing was paid: no refund form.
    expect(screen.querySelector('dash-refund-form')).to.equal(null);
  });

  it('refunds part of a payment after proving a second factor again, then reads the order again', async () => {
    const session = fakeSession();
    let refundCalls = 0;
    api.respond((url) => {
      if (url.pathname.endsWith('/refunds')) {
        refundCalls += 1;
        if (refundCalls === 1) return { status: 403, body: { status: 'failed', statusCode: 'AUTH403', reason: 'step_up_required', message: 'Confirm it is you.' } };
        return {
          body: {
            status: 'success', statusCode: '00', message: 'OK',
            data: {
              refund: { reference: 'RFD2', paymentReference: 'PAY-ORD-1001', state: 'succeeded', amountMinor: 150_000, amount: '1500.00', currency: 'NGN', reason: 'Late', responseCode: '00', responseMessage: 'Refunded', createdAt: '2026-11-28T12:00:00Z', completedAt: '2026-11-28T12:00:00Z' },
              refundable: { amountMinor: 850_000, amount: '8500.00', currency: 'NGN' },
            },
          },
        };
      }
      return { body: orderDetailAnswer(ORDERS[0]!) };
    });
    app = await mountApp({ hash: '#/payments/ORD-1001', session });
    const screen = await screenOf(app, 'dash-payment');
    const form = await waitFor(() => screen.querySelector('dash-refund-form')?.shadowRoot?.querySelector('form'), 'the refund form');
    expect(textOf(form)).to.include('Left to refund').and.include('10,000.00');
    form.querySelector<HTMLInputElement>('input[value=partial]')!.click();
    const amount = await waitFor(() => form.querySelector<HTMLInputElement>('#refund-amount'), 'the amount field');
    amount.value = '20000';
    form.requestSubmit();
    await waitFor(() => form.querySelector('#refund-amount-error'), 'the amount error');
    amount.value = '1500';
    form.querySelector<HTMLInputElement>('#refund-reason')!.value = 'Late';
    form.requestSubmit();
    const refundForm = screen.querySelector('dash-refund-form')!.shadowRoot!;
    const stepUp = await waitFor(() => refundForm.querySelector('dash-step-up')?.shadowRoot?.querySelector('form'), 'the step-up form');
    stepUp.querySelector<HTMLInputElement>('#step-up-code')!.value = '123 456';
    stepUp.requestSubmit();
    await waitFor(() => refundCalls === 2, 'the refund sent again');
    expect(session.calls).to.include('step-up totp');
    const sent = api.requests.filter((request) => request.url.pathname.endsWith('/refunds'));
    expect(JSON.parse(String(sent[1]!.init!.body))).to.deep.equal({ amount: 1500, reason: 'Late' });
    expect((sent[1]!.init!.headers as Record<string, string>)['x-csrf-token']).to.equal(ME.csrfToken);
    await waitFor(() => api.requests.filter((request) => request.url.pathname === '/checkout/orders/ORD-1001').length === 2, 'the order read again');
  });

  it('signs in with e-mail, password and a 6-digit code, then shows the page that was asked for', async () => {
    const session = fakeSession(null);
    app = await mountApp({ hash: '#/payments', session });
    const signIn = await screenOf(app, 'dash-sign-in');
    expect(location.hash).to.equal(`#/sign-in?next=${encodeURIComponent('#/payments')}`);
    // A submit with mistakes says what is wrong under each field and focuses the first.
    signIn.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await waitFor(() => signIn.querySelector('#email-error'), 'the field errors');
    expect(signIn.activeElement?.id).to.equal('email');
    signIn.querySelector<HTMLInputElement>('#email')!.value = 'ada@acme.test';
    signIn.querySelector<HTMLInputElement>('#password')!.value = 'correct horse battery';
    signIn.querySelector<HTMLFormElement>('form')!.requestSubmit();
    const code = await waitFor(() => signIn.querySelector<HTMLInputElement>('#code[autocomplete=one-time-code]'), 'the code step');
    expect(signIn.activeElement).to.equal(code);
    code.value = '123 456';
    signIn.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await screenOf(app, 'dash-payments');
    expect(session.calls).to.include('password ada@acme.test').and.include('totp 123456');
    expect(location.hash).to.equal('#/payments');
  });

  it('finishes with a backup code instead, and signs in with a passkey', async () => {
    const session = fakeSession(null);
    app = await mountApp({ hash: '#/sign-in', session });
    const signIn = await screenOf(app, 'dash-sign-in');
    signIn.querySelector<HTMLInputElement>('#email')!.value = 'ada@acme.test';
    signIn.querySelector<HTMLInputElement>('#password')!.value = 'pw';
    signIn.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await waitFor(() => signIn.querySelector('#code'), 'the code step');
    [...signIn.querySelectorAll<HTMLButtonElement>('button.link')].find((button) => button.textContent?.includes('backup'))!.click();
    const backup = await waitFor(() => signIn.querySelector<HTMLInputElement>('#code[autocomplete=off]'), 'the backup code field');
    backup.value = 'abcd-efgh-ijkl';
    signIn.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await screenOf(app, 'dash-home');
    expect(session.calls).to.include('backup_code abcd-efgh-ijkl');
    unmount(app);

    const passkeySession = fakeSession(null);
    app = await mountApp({ hash: '#/sign-in', session: passkeySession });
    const again = await screenOf(app, 'dash-sign-in');
    again.querySelector<HTMLButtonElement>('button.passkey')!.click();
    await screenOf(app, 'dash-home');
    expect(passkeySession.calls).to.include('passkey');
  });

  it('says why a sign-in was refused in an alert, in French too', async () => {
    const session = fakeSession(null, { signInWithPassword: async () => Promise.reject(new (await import('../../../dashboard/api/session.ts')).SessionError('invalid_credentials')) });
    app = await mountApp({ hash: '#/sign-in', session, language: 'fr' });
    const signIn = await screenOf(app, 'dash-sign-in');
    expect(textOf(signIn.querySelector('h1')!)).to.equal('Connexion');
    signIn.querySelector<HTMLInputElement>('#email')!.value = 'ada@acme.test';
    signIn.querySelector<HTMLInputElement>('#password')!.value = 'wrong';
    signIn.querySelector<HTMLFormElement>('form')!.requestSubmit();
    const alert = await waitFor(() => signIn.querySelector('[role=alert] p'), 'the alert');
    expect(alert.textContent).to.include('ne correspondent à aucun compte');
  });

  it('accepts an invitation with a password of at least 12 characters', async () => {
    const session = fakeSession(null);
    app = await mountApp({ hash: '#/accept?token=inv_123', session });
    const accept = await screenOf(app, 'dash-accept');
    accept.querySelector<HTMLInputElement>('#password')!.value = 'short';
    accept.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await waitFor(() => accept.querySelector('#password-error'), 'the password error');
    accept.querySelector<HTMLInputElement>('#password')!.value = 'a long enough passphrase';
    accept.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await screenOf(app, 'dash-home');
    expect(session.calls).to.include('accept inv_123');
  });

  it('offers an authenticator app right after an invitation, with its QR code, then shows the backup codes once', async () => {
    const newcomer = { ...ME, twoFactor: { ...ME.twoFactor, totp: false } };
    const session = fakeSession(null, { acceptInvitation: async () => ({ step: 'signed_in', me: newcomer }) });
    app = await mountApp({ hash: '#/accept?token=inv_123', session });
    const accept = await screenOf(app, 'dash-accept');
    accept.querySelector<HTMLInputElement>('#password')!.value = 'a long enough passphrase';
    accept.querySelector<HTMLFormElement>('form')!.requestSubmit();
    const enrolment = await waitFor(() => accept.querySelector('dash-totp-enrolment')?.shadowRoot?.querySelector('form'), 'the enrolment');
    expect(enrolment.querySelector('.qr svg path')).to.not.equal(null);
    expect(textOf(enrolment)).to.include('JBSWY3DPEHPK3PXP');
    enrolment.querySelector<HTMLInputElement>('#totp-code')!.value = '654321';
    enrolment.requestSubmit();
    const root = accept.querySelector('dash-totp-enrolment')!.shadowRoot!;
    await waitFor(() => textOf(root).includes('7KQ2-M9XD-4TPA'), 'the backup codes');
    expect(session.calls).to.include('start totp').and.include('confirm totp 654321');
    root.querySelector<HTMLButtonElement>('button.primary')!.click();
    await screenOf(app, 'dash-home');
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`has no accessibility violations on Home, a payment, sign-in and the invitation in the ${theme} theme`, async () => {
      const screens: [string, string, boolean][] = [
        ['#/', 'dash-home', true],
        ['#/payments/ORD-1001', 'dash-payment', true],
        ['#/sign-in', 'dash-sign-in', false],
        ['#/accept?token=inv_1', 'dash-accept', false],
      ];
      for (const [hash, tag, signedIn] of screens) {
        app = await mountApp({ hash, session: fakeSession(signedIn ? undefined : null), reports, theme });
        const screen = await screenOf(app, tag);
        await waitFor(() => !textOf(screen).includes('Loading'), `${tag} loaded`);
        if (tag === 'dash-home') await waitFor(() => screen.querySelector('dash-volume-chart'), 'the chart');
        await expectAccessible(app);
        unmount(app);
        app = undefined;
      }
    });
  }
});
