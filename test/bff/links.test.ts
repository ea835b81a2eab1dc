import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';
import { createMerchant } from '../support/merchant.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

const validLink = {
  Name: 'Spring sale',
  Description: 'Two tickets to the spring show',
  PaymentType: 'SC',
  Currency: 'NGN',
  AuthOption: 'AUTH',
  Amount: '5800.50',
  Mobile: '08012345678',
  BackgroundImage: 'https://store.test/bg.png',
  Website: 'https://store.test/thanks',
  Limit: '3',
};

describe.each(drivers)('POST /checkout/links/create on %s', (driver) => {
  const context = useTestApp(driver, { overrides: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
  let app: FastifyInstance;
  let keys: IssuedKeys;

  const create = (payload: unknown, apiKey = keys.secretKey) =>
    app.inject({ method: 'POST', url: '/checkout/links/create', headers: { 'api-key': apiKey }, payload: payload as object });

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app, 'Acme Stores');
  });

  it('creates a link with every documented member and a payment page URL on the public base URL', async () => {
    const response = await create(validLink);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'success', statusCode: '00', message: 'Payment details fetched successfully' });
    const link = body.data.paymentLink;
    expect(link).toMatchObject({
      name: 'Spring sale',
      description: 'Two tickets to the spring show',
      paymentType: 'SC',
      paymentLinkType: 'Single Charge',
      amount: 5800.5,
      currency: 'NGN',
      limit: 3,
      isActive: true,
      appEnvironmentId: 1,
      createdBy: 'Acme Stores',
      creatorEmail: 'support@store.test',
    });
    expect(link.reference).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(link.paymentLinkUrl).toBe(`https://pay.example.test/l/${link.reference}`);
    expect(link.dateCreated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    expect(body.data.subsidiary).toEqual({ id: keys.subsidiaryId, name: 'Acme Stores', country: 'NG', supportEmail: 'support@store.test', customization: [], logo: null });
  });

  it('serves the payment page as HTML at the returned URL', async () => {
    const link = (await create(validLink)).json().data.paymentLink;
    const page = await app.inject({ method: 'GET', url: `/l/${link.reference}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Spring sale');
    expect(page.body).toContain('Acme Stores');
  });

  it('answers an unknown link reference with a not-found page', async () => {
    const page = await app.inject({ method: 'GET', url: '/l/doesnotexist' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('leaves the amount to the customer when Amount is empty', async () => {
    const response = await create({ ...validLink, Amount: '' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.paymentLink.amount).toBeNull();
  });

  it('accepts Amount and Limit as numbers and field names in any case', async () => {
    const response = await create({ name: 'Gym', DESCRIPTION: 'Monthly membership', paymenttype: 'sub', currency: 'usd', authoption: 'NOAUTH', amount: 25, limit: 10 });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.paymentLink).toMatchObject({ name: 'Gym', paymentType: 'SUB', paymentLinkType: 'Subscription Payments', currency: 'USD', amount: 25, limit: 10 });
  });

  it('makes every link reference distinct', async () => {
    const references = new Set<string>();
    for (let index = 0; index < 5; index += 1) references.add((await create(validLink)).json().data.paymentLink.reference);
    expect(references.size).toBe(5);
  });

  it.each(['Name', 'Description', 'PaymentType', 'Currency', 'AuthOption'])('refuses a link without %s, naming the field', async (field) => {
    const payload: Record<string, unknown> = { ...validLink };
    delete payload[field];
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: `The ${field} field is required.` });
  });

  it('treats a blank required field as missing', async () => {
    const response = await create({ ...validLink, Name: '   ' });
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The Name field is required.' });
  });

  it.each([
    [{ PaymentType: 'XX' }, 'The PaymentType field must be one of SC, MC, SUB.'],
    [{ AuthOption: 'MAYBE' }, 'The AuthOption field must be one of AUTH, NOAUTH.'],
    [{ Currency: 'ABC' }, 'The Currency field must be an ISO 4217 currency code such as NGN or USD.'],
    [{ Amount: '-5' }, 'The Amount field must be a number.'],
    [{ Amount: 0 }, 'The Amount field must be greater than 0.'],
    [{ Amount: 10.123 }, 'The Amount field has more decimal places than NGN allows.'],
    [{ Website: 'javascript:alert(1)' }, 'The Website field must be an absolute http or https URL.'],
    [{ BackgroundImage: 'not a url' }, 'The BackgroundImage field must be an absolute http or https URL.'],
    [{ Limit: 'ten' }, 'The Limit field must be a whole number.'],
    [{ Limit: 0 }, 'The Limit field must be at least 1.'],
  ])('refuses an invalid field %j with a message naming it', async (change, message) => {
    const response = await create({ ...validLink, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message });
  });

  it('refuses the publishable key: links are made with the secret key', async () => {
    const response = await create(validLink, keys.publishableKey);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ status: 'failed', statusCode: 'AUTH403' });
  });
});
