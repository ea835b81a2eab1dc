import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, newPlace, startApp, type Place } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { configOf, fakeWidgetDir } from '../support/widget-page.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

const widgetDir = fakeWidgetDir();

/** The reference of the order the form page starts (its hidden field). */
function formOrder(html: string): string {
  return /<input type="hidden" name="order" value="([^"]+)">/.exec(html)![1]!;
}

describe('the payment-link page', () => {
  let place: Place;
  let app: FastifyInstance;
  let keys: IssuedKeys;

  beforeAll(async () => {
    place = newPlace('pglite');
    app = await startApp(place, { PUBLIC_BASE_URL: 'http://127.0.0.1:9999', CHECKOUT_WIDGET_DIR: widgetDir });
    keys = await app.merchants.create({ name: 'Acme Stores', country: 'NG', supportEmail: 's@acme.test', allowedOrigins: [] });
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  const createLink = async (payload: object, apiKey = keys.secretKey) =>
    (await app.inject({ method: 'POST', url: '/checkout/links/create', headers: { 'api-key': apiKey }, payload: { Name: 'Donation', Description: 'Support us', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'NOAUTH', ...payload } })).json().data.paymentLink;

  const postForm = (reference: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url: `/l/${reference}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

  const ada = { firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', mobile: '+234 801 234 5678' };

  const ordersOfLink = async (id: number) =>
    (await app.storage.query<{ reference: string }>('SELECT reference FROM orders WHERE payment_link_id = $1', [id])).map((row) => row.reference);

  it('asks for the customer and an amount when the link has none, with errors tied to fields', async () => {
    const link = await createLink({ Website: 'https://acme.test/thanks', BackgroundImage: 'https://acme.test/bg.jpg' });
    const blank = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
    expect(blank.statusCode).toBe(200);
    expect(blank.body).toContain('<label for="amount">Amount (NGN)</label>');
    expect(blank.body).toContain('src="https://acme.test/bg.jpg"');
    const wrong = await postForm(link.reference, { firstname: 'Ada', lastname: '', email: 'nope', amount: 'abc' });
    expect(wrong.statusCode).toBe(303);
    const page = await app.inject({ method: 'GET', url: String(wrong.headers.location) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('aria-describedby="email-error"');
    expect(page.body).toContain('id="amount-error"');
    expect(page.body).toContain('id="lastname-error"');
    expect(page.body).not.toContain('id="firstname-error"');
    expect(await ordersOfLink(link.id)).toEqual([]);
  });

  it("answers a form with fields in error by a redirect to the form's address naming those fields, never what the customer typed", async () => {
    const link = await createLink({});
    const wrong = await postForm(link.reference, { firstname: 'Ada', lastname: 'Obi', email: 'ada@nowhere', mobile: '+234 801 234 5678', amount: '0' });
    expect(wrong.statusCode).toBe(303);
    expect(wrong.body).toBe('');
    expect(wrong.headers.location).toBe(`/l/${link.reference}?invalid=amount,email`);
    const long = await postForm(link.reference, { ...ada, firstname: 'A'.repeat(101), amount: '10' });
    expect(long.statusCode).toBe(303);
    expect(long.headers.location).toBe(`/l/${link.reference}?invalid=firstname`);
    const page = await app.inject({ method: 'GET', url: String(wrong.headers.location) });
    expect(page.body).toContain('Please correct the fields marked below.');
    expect(page.body).toContain('Enter an e-mail address like name@example.com.');
    expect(page.body).toContain('Enter an amount in NGN, like 5000 or 5000.50.');
    // Checked without the page's random references (the link's, and the order's `LNK-` and 24 hex digits), which may
    // hold "801" or a name's letters by chance.
    const withoutReferences = page.body.replaceAll(link.reference, '').replace(/LNK-[0-9A-F]{24}/g, '');
    expect(withoutReferences).not.toMatch(/Ada|Obi|nowhere|801/);
    const made = await app.inject({ method: 'GET', url: `/l/${link.reference}?invalid=nonsense,<b>` });
    expect(made.statusCode).toBe(200);
    expect(made.body).not.toContain('class="error"');
    expect(await ordersOfLink(link.id)).toEqual([]);
  });

  it('lets the browser check the form before it is sent: required fields, an e-mail address, an amount and a phone number of the right shape', async () => {
    const link = await createLink({});
    const form = (await app.inject({ method: 'GET', url: `/l/${link.reference}` })).body;
    expect(form).not.toContain('novalidate');
    expect(form).toMatch(/<input id="amount" name="amount" value="" inputmode="decimal" required maxlength="20" pattern="[^"]+" title="Enter an amount in NGN, like 5000 or 5000.50."/);
    expect(form).toMatch(/<input id="firstname" name="firstname" value="" required maxlength="100"/);
    expect(form).toMatch(/<input id="email" name="email" value="" type="email" required maxlength="200"/);
    expect(form).toMatch(/<input id="mobile" name="mobile" value="" type="tel" maxlength="20" pattern="[^"]+"/);
    const pattern = (name: string) => new RegExp(`^(?:${new RegExp(`id="${name}"[^>]* pattern="([^"]+)"`).exec(form)![1]!})$`, 'v');
    expect(['5000', '5,000.50', '5 000,50'].every((amount) => pattern('amount').test(amount))).toBe(true);
    expect(pattern('amount').test('abc')).toBe(false);
    expect(pattern('mobile').test('+234 (801) 234-5678')).toBe(true);
    expect(pattern('mobile').test('call me')).toBe(false);
  });

  it('answers addresses no page gives with the not-found pages, not the API envelope', async () => {
    const link = await createLink({ Amount: 100 });
    const cases = [
      [`/l/${link.reference}?order=${'A'.repeat(65)}`, 'Order not found'],
      [`/l/${link.reference}?order=a&order=b`, 'Order not found'],
      [`/l/${link.reference}?invalid=${'a'.repeat(65)}`, 'Order not found'],
      [`/l/${'x'.repeat(65)}`, 'Payment link not found'],
      [`/l/${'x'.repeat(65)}?order=a&order=b`, 'Payment link not found'],
      [`/l/nolink?order=a&order=b`, 'Payment link not found'],
    ] as const;
    for (const [url, title] of cases) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(404);
      expect(page.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(page.body, url).toContain(`<h1>${title}</h1>`);
    }
    const posted = await postForm('x'.repeat(65), ada);
    expect(posted.statusCode).toBe(404);
    expect(posted.body).toContain('<h1>Payment link not found</h1>');
    const french = await app.inject({ method: 'GET', url: `/l/${link.reference}?order=a&order=b`, headers: { 'accept-language': 'fr' } });
    expect(french.statusCode).toBe(404);
    expect(french.body).toContain('<h1>Commande introuvable</h1>');
    const api = await app.inject({ method: 'POST', url: '/checkout/order/status', headers: { 'api-key': keys.publishableKey }, payload: { reference: 'A'.repeat(200) } });
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(api.json()).toMatchObject({ status: 'failed', statusCode: 'VAL400' });
  });

  it("answers the form with 303 to the order's own address, which carries none of the customer's details", async () => {
    const link = await createLink({ Website: 'https://acme.test/thanks' });
    const posted = await postForm(link.reference, { ...ada, amount: '2500.50' });
    expect(posted.statusCode).toBe(303);
    const location = String(posted.headers.location);
    expect(location).toMatch(new RegExp(`^/l/${link.reference}\\?order=LNK-[0-9A-F]{24}$`));
    // Nothing but the order's random reference: no name, e-mail, phone or amount (the references are random hex, so
    // the address is checked by its shape, not by searching it for the customer's digits).
    const address = new URL(location, 'http://x');
    expect([...address.searchParams.keys()]).toEqual(['order']);
    const reference = address.searchParams.get('order')!;
    expect(await ordersOfLink(link.id)).toEqual([reference]);
    const [order] = await app.storage.query('SELECT amount_minor, redirect_url FROM orders WHERE reference = $1', [reference]);
    expect(order).toMatchObject({ amount_minor: 250050, redirect_url: `http://127.0.0.1:9999${location}` });
  });

  it("shows the checkout of that order at its address: the order's details in the page, its own address for 3-D Secure", async () => {
    const link = await createLink({ Website: 'https://acme.test/thanks' });
    const location = String((await postForm(link.reference, { ...ada, amount: '2500.50' })).headers.location);
    const reference = new URL(location, 'http://x').searchParams.get('order');
    const page = await app.inject({ method: 'GET', url: location });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(configOf(page.body)).toMatchObject({
      'api-key': keys.publishableKey,
      reference,
      amount: 2500.5,
      currency: 'NGN',
      'customer-first-name': 'Ada',
      'customer-last-name': 'Obi',
      'customer-email': 'ada@example.test',
      'customer-mobile': '+234 801 234 5678',
      'payment-link-id': link.id,
      'redirect-url': `http://127.0.0.1:9999${location}`,
      'success-url': 'https://acme.test/thanks',
    });
    expect(page.body).toContain('<h1>Donation</h1>');
    // The checkout asks the API for the same order and gets it back, not a second one.
    const again = await new CheckoutClient(app, keys).createOrder({
      customer: { firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test' },
      order: { amount: 2500.5, reference, currency: 'NGN', description: 'Support us' },
      payment: { paymentlinkid: link.id, RedirectUrl: `http://127.0.0.1:9999${location}` },
    });
    expect(again.json()).toMatchObject({ statusCode: '01', data: { order: { reference, statusId: 1 } } });
    expect(await ordersOfLink(link.id)).toEqual([reference]);
  });

  it('finds the same order when the same form is sent twice, and makes a new one when its details changed', async () => {
    const link = await createLink({ Amount: 100 });
    const form = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
    const order = formOrder(form.body);
    const first = await postForm(link.reference, { ...ada, order });
    const second = await postForm(link.reference, { ...ada, order });
    expect(first.statusCode).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    expect(first.headers.location).toBe(`/l/${link.reference}?order=${order}`);
    const changed = await postForm(link.reference, { ...ada, email: 'obi@example.test', order });
    expect(changed.statusCode).toBe(303);
    expect(changed.headers.location).not.toBe(first.headers.location);
    expect((await ordersOfLink(link.id)).sort()).toHaveLength(2);
  });

  it("refuses another merchant's order, or another link's, at a link's address", async () => {
    const link = await createLink({ Amount: 100 });
    const other = await app.merchants.create({ name: 'Other Shop', country: 'NG', supportEmail: 's@other.test', allowedOrigins: [] });
    const foreignLink = await createLink({ Amount: 100 }, other.secretKey);
    const foreign = new URL(String((await postForm(foreignLink.reference, ada)).headers.location), 'http://x').searchParams.get('order')!;
    const otherLink = await createLink({ Amount: 100 });
    const ofOtherLink = new URL(String((await postForm(otherLink.reference, ada)).headers.location), 'http://x').searchParams.get('order')!;
    const plain = await new CheckoutClient(app, keys).newOrder();
    for (const reference of [foreign, ofOtherLink, plain, 'LNK-000000000000000000000000']) {
      const page = await app.inject({ method: 'GET', url: `/l/${link.reference}?order=${reference}` });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('Order not found');
      expect(page.body).not.toContain('checkout-config');
      expect(page.body).not.toContain('Ada');
    }
  });

  it('shows a paid order of a used-up link to its customer, and the used-up page for an order never tried', async () => {
    const link = await createLink({ Amount: 100, Limit: 1 });
    const paidAt = String((await postForm(link.reference, ada)).headers.location);
    const untriedAt = String((await postForm(link.reference, { ...ada, email: 'obi@example.test' })).headers.location);
    const paid = new URL(paidAt, 'http://x').searchParams.get('order')!;
    const payment = (await new CheckoutClient(app, keys).payByCard(paid, '5555555555554444')).json();
    expect(payment.statusCode).toBe('00');
    expect((await app.links.findByReference(link.reference))!.uses).toBe(1);

    const receipt = await app.inject({ method: 'GET', url: paidAt });
    expect(receipt.statusCode).toBe(200);
    const config = configOf(receipt.body);
    expect(config).toMatchObject({ reference: paid, 'payment-link-id': link.id });
    // Only the reference: the checkout shows where the order is instead of asking the link for it again.
    expect(config).not.toHaveProperty('amount');
    expect(config).not.toHaveProperty('customer-email');

    const untried = await app.inject({ method: 'GET', url: untriedAt });
    expect(untried.statusCode).toBe(410);
    expect(untried.body).toContain('already been used');
    expect((await app.inject({ method: 'GET', url: `/l/${link.reference}` })).statusCode).toBe(410);
  });

  it("sends a return to the link's bare address on to the order's own address, which the checkout keeps", async () => {
    const link = await createLink({ Amount: 100 });
    const reference = new URL(String((await postForm(link.reference, ada)).headers.location), 'http://x').searchParams.get('order')!;
    const back = await app.inject({ method: 'GET', url: `/l/${link.reference}?reference=${reference}&status=successful` });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/l/${link.reference}?order=${reference}&reference=${reference}&status=successful`);
    const foreign = await new CheckoutClient(app, keys).newOrder();
    const typed = await app.inject({ method: 'GET', url: `/l/${link.reference}?reference=${foreign}&status=successful` });
    expect(typed.statusCode).toBe(200);
    expect(typed.body).toContain('Continue to payment');
  });

  it('ignores customer details put in the address, showing the empty form', async () => {
    const link = await createLink({ Amount: 100 });
    const page = await app.inject({ method: 'GET', url: `/l/${link.reference}?firstname=Ada&lastname=Obi&email=ada%40example.test` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Continue to payment');
    expect(page.body).not.toContain('Ada');
    expect(page.body).not.toContain('id="checkout-config"');
  });

  it('escapes what merchants and customers typed', async () => {
    const link = await createLink({ Name: '<script>alert(1)</script>', Amount: 100 });
    const location = String((await postForm(link.reference, { firstname: '</script>', lastname: 'O', email: 'a@b.test' })).headers.location);
    const page = await app.inject({ method: 'GET', url: location });
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).not.toContain('</script>&');
    expect(configOf(page.body)['customer-first-name']).toBe('</script>');
  });

  it('shows the clear page for an inactive or used-up link whatever the address or the form carries', async () => {
    const inactive = await createLink({ Amount: 100 });
    await app.storage.query('UPDATE payment_links SET is_active = false WHERE reference = $1', [inactive.reference]);
    const single = await createLink({ Amount: 100, Limit: 1 });
    await app.storage.query('UPDATE payment_links SET uses = 1 WHERE reference = $1', [single.reference]);
    for (const [link, words] of [[inactive, 'no longer active'], [single, 'already been used']] as const) {
      const bare = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
      expect(bare.statusCode).toBe(410);
      expect(bare.body).toContain(words);
      const typed = await app.inject({ method: 'GET', url: `/l/${link.reference}?reference=LNK-MADEUP&firstname=Ada&lastname=Obi&email=ada%40example.test` });
      expect(typed.statusCode).toBe(410);
      expect(typed.body).toContain(words);
      const posted = await postForm(link.reference, ada);
      expect(posted.statusCode).toBe(303);
      expect(posted.headers.location).toBe(`/l/${link.reference}`);
      const shown = await app.inject({ method: 'GET', url: String(posted.headers.location) });
      expect(shown.statusCode).toBe(410);
      expect(shown.body).toContain(words);
    }
  });

  it('shows the used-up page, never an API envelope, for a paid single-charge link without a Limit, and for MC and SUB links at their Limit', async () => {
    const client = new CheckoutClient(app, keys);
    const cases = [
      { link: await createLink({ Amount: 100 }), uses: 1 },
      { link: await createLink({ Amount: 100, PaymentType: 'MC', Limit: 2 }), uses: 2 },
      { link: await createLink({ Amount: 100, PaymentType: 'SUB', Limit: 1 }), uses: 1 },
    ];
    const [single] = cases;
    const paidAt = String((await postForm(single!.link.reference, ada)).headers.location);
    const paid = new URL(paidAt, 'http://x').searchParams.get('order')!;
    expect((await client.payByCard(paid, '5555555555554444')).json()).toMatchObject({ statusCode: '00' });
    expect((await app.links.findByReference(single!.link.reference))!.uses).toBe(1);
    for (const { link, uses } of cases.slice(1)) await app.storage.query('UPDATE payment_links SET uses = $2 WHERE reference = $1', [link.reference, uses]);
    for (const { link } of cases) {
      const page = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
      expect(page.statusCode, link.paymentLinkType).toBe(410);
      expect(page.body).toContain('already been used');
      const posted = await postForm(link.reference, { ...ada, email: 'late@example.test' });
      expect(posted.statusCode).toBe(303);
      expect(posted.headers['content-type'] ?? '').not.toContain('application/json');
      const shown = await app.inject({ method: 'GET', url: String(posted.headers.location) });
      expect(shown.statusCode).toBe(410);
      expect(shown.body).toContain('already been used');
    }
  });

  it("shows the merchant's logo on its link pages once it has one, and its initials before", async () => {
    const link = await createLink({ Amount: '5000', Limit: '1' });
    const before = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
    expect(before.body).toContain('<span class="logo monogram" aria-hidden="true">AS</span><p class="merchant">Acme Stores</p>');
    await app.merchants.setLogo(keys.subsidiaryId, 'https://cdn.acme.test/logo.svg');
    try {
      const after = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
      expect(after.body).toContain('<img class="logo" src="https://cdn.acme.test/logo.svg" alt=""><p class="merchant">Acme Stores</p>');
      expect(after.body).not.toContain('monogram');
      // The used-up page is the merchant's too.
      await app.inject({ method: 'PATCH', url: `/checkout/links/${link.id}/status/disable`, headers: { 'api-key': keys.secretKey } });
      const inactive = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
      expect(inactive.statusCode).toBe(410);
      expect(inactive.body).toContain('<img class="logo" src="https://cdn.acme.test/logo.svg" alt="">');
    } finally {
      await app.merchants.setLogo(keys.subsidiaryId, null);
    }
  });

  it('keeps a logo that is not https out of the merchant record', async () => {
    await expect(app.storage.query("UPDATE merchants SET logo_url = 'http://cdn.acme.test/logo.svg' WHERE id = $1", [keys.subsidiaryId])).rejects.toThrow(/merchants_logo_url_https/);
  });

  it('names an icon on every page the server renders, served as SVG there and where browsers look by default', async () => {
    const link = await createLink({ Amount: 100 });
    const pages = [`/l/${link.reference}`, '/l/doesnotexist', '/checkout/result?reference=A&status=successful'];
    for (const url of pages) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.body, url).toContain('<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">');
    }
    for (const url of ['/assets/favicon.svg', '/favicon.ico']) {
      const icon = await app.inject({ method: 'GET', url });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/svg+xml');
      expect(icon.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
  });

  describe('in the language the customer prefers', () => {
    const french = { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8' };
    const money = (locale: string, amount: number) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'NGN' }).format(amount);

    it('shows the link form in French, with the amount written as the French checkout writes it', async () => {
      const link = await createLink({ Amount: '5800.50' });
      const page = await app.inject({ method: 'GET', url: `/l/${link.reference}`, headers: french });
      expect(page.body).toContain('<html lang="fr-FR">');
      expect(page.body).toContain('<label for="firstname">Prénom</label>');
      expect(page.body).toContain('Continuer vers le paiement');
      expect(page.body).toContain(`<p class="amount">${money('fr-FR', 5800.5)}</p>`);
      expect(money('fr-FR', 5800.5)).toMatch(/^5\s800,50\sNGN$/u);
      expect(page.body).not.toContain('Continue to payment');
      expect(page.headers.vary).toMatch(/accept-language/i);
    });

    it('keeps English, in the customer\'s region, for other languages or none', async () => {
      const link = await createLink({ Amount: '5800.50' });
      for (const [header, lang, amount] of [[undefined, 'en', 'NGN\u00a05,800.50'], ['de-DE,de;q=0.9', 'en', 'NGN\u00a05,800.50'], ['en-NG', 'en-NG', '₦5,800.50'], ['de,en-GB;q=0.8,fr;q=0.5', 'en-GB', money('en-GB', 5800.5)]] as const) {
        const page = await app.inject({ method: 'GET', url: `/l/${link.reference}`, headers: header ? { 'accept-language': header } : {} });
        expect(page.body, header).toContain(`<html lang="${lang}">`);
        expect(page.body, header).toContain('Continue to payment');
        expect(page.body, header).toContain(`<p class="amount">${amount}</p>`);
      }
    });

    it('says what to correct in French and reads a French amount (2 500,50)', async () => {
      const link = await createLink({});
      const post = (fields: Record<string, string>) =>
        app.inject({ method: 'POST', url: `/l/${link.reference}`, headers: { ...french, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
      const wrong = await post({ firstname: '', lastname: 'Obi', email: 'nope', amount: 'abc' });
      expect(wrong.statusCode).toBe(303);
      const page = await app.inject({ method: 'GET', url: String(wrong.headers.location), headers: french });
      expect(page.body).toContain('Corrigez les champs signalés ci-dessous.');
      expect(page.body).toContain('Saisissez votre prénom.');
      expect(page.body).toContain('Saisissez une adresse e-mail comme nom@exemple.com.');
      expect(page.body).toContain('Saisissez un montant en NGN, comme 5000 ou 5000,50.');
      const right = await post({ ...ada, amount: '2 500,50' });
      expect(right.statusCode).toBe(303);
      const reference = new URL(String(right.headers.location), 'http://x').searchParams.get('order');
      const [order] = await app.storage.query('SELECT amount_minor FROM orders WHERE reference = $1', [reference]);
      expect(order).toMatchObject({ amount_minor: 250050 });
    });

    it('says in French that a link is used up', async () => {
      const link = await createLink({ Amount: 100, Limit: 1 });
      await app.storage.query('UPDATE payment_links SET uses = 1 WHERE reference = $1', [link.reference]);
      const page = await app.inject({ method: 'GET', url: `/l/${link.reference}`, headers: french });
      expect(page.statusCode).toBe(410);
      expect(page.body).toContain('<h1>Lien de paiement épuisé</h1>');
      expect(page.body).toContain('<html lang="fr-FR">');
    });

    it("shows the bank's 3-D Secure page in French, wrong codes included", async () => {
      const link = await createLink({ Amount: '5800.50', AuthOption: 'AUTH' });
      const reference = new URL(String((await postForm(link.reference, ada)).headers.location), 'http://x').searchParams.get('order')!;
      const pay = (await new CheckoutClient(app, keys).payByCard(reference, '4242424242424242')).json();
      const path = new URL(pay.data.paymentDetail.redirectUrl).pathname;
      const page = await app.inject({ method: 'GET', url: path, headers: french });
      expect(page.body).toContain('<html lang="fr-FR">');
      expect(page.body).toContain('<h1>Authentifiez votre paiement</h1>');
      expect(page.body).toContain('<label for="code">Code à usage unique</label>');
      // The amount with the card fee, written the French way.
      expect(page.body).toMatch(/Paiement de <strong>\d[\d\s]*,\d\d\sNGN<\/strong> à <strong>Acme Stores<\/strong>/u);
      const wrong = await app.inject({ method: 'POST', url: path, headers: { ...french, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'action=approve&code=000000' });
      expect(wrong.statusCode).toBe(303);
      expect(wrong.headers.location).toBe(path);
      expect((await app.inject({ method: 'GET', url: path, headers: french })).body).toContain('Ce code est incorrect. 2 essais restants.');

      const done = await app.inject({ method: 'POST', url: path, headers: { ...french, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'action=fail' });
      expect(done.statusCode).toBe(303);
      const again = await app.inject({ method: 'GET', url: path, headers: french });
      expect(again.body).toContain('<html lang="fr-FR">');
      expect(again.body).toContain('<h1>Authentification terminée</h1>');
      expect(again.body).toContain('>Retourner chez le marchand</a>');
      const unknown = await app.inject({ method: 'GET', url: '/checkout/3ds/PAY000000000000000000000000', headers: french });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('<h1>Paiement introuvable</h1>');
    });

    it('gives the hosted result in French, and a pending payment its own words in both languages', async () => {
      const paid = await app.inject({ method: 'GET', url: '/checkout/result?reference=ORD-7&status=successful', headers: french });
      expect(paid.body).toContain('<html lang="fr-FR">');
      expect(paid.body).toContain('<h1>Paiement réussi</h1>');
      expect(paid.body).toContain('Votre paiement pour la commande ORD-7 a réussi. Vous pouvez fermer cette page.');
      expect(paid.headers.vary).toMatch(/accept-language/i);
      const failed = await app.inject({ method: 'GET', url: '/checkout/result?reference=ORD-7&status=failed', headers: french });
      expect(failed.body).toContain('Le paiement pour la commande ORD-7 n&#39;a pas abouti.');
      const pending = await app.inject({ method: 'GET', url: '/checkout/result?reference=ORD-7&status=pending' });
      expect(pending.body).toContain('<h1>Payment pending</h1>');
      expect(pending.body).toContain('is waiting for confirmation');
      expect(pending.body).not.toContain('did not go through');
    });

    it('says in French that a checkout frame session is not valid', async () => {
      const page = await app.inject({ method: 'GET', url: '/checkout/frame/not-a-token', headers: french });
      expect(page.statusCode).toBe(403);
      expect(page.body).toContain('<html lang="fr-FR">');
      expect(page.body).toContain('Cette session de paiement n&#39;est pas valide ou a expiré.');
    });
  });
});
