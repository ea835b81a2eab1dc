import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chooseMethod, launchBrowser, newPage, screenshot } from './support/browser.ts';
import { serverCall } from './support/server.ts';

/**
 * The hosted pages and the widget are one design: the payment-link page's header lines up with the checkout's
 * panel, and the pages' buttons, fields, font and radius are the widget's, drawn from the same design tokens.
 */
const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function linkUrl(): Promise<string> {
  const created = await serverCall<{ data: { paymentLink: { paymentLinkUrl: string } } }>(server, '/checkout/links/create', {
    Name: 'Pottery class',
    Description: 'One seat at the Saturday class.',
    PaymentType: 'MC',
    Currency: 'NGN',
    AuthOption: 'AUTH',
    Amount: '15000',
  });
  return created.data.paymentLink.paymentLinkUrl;
}

const box = async (locator: Locator) => (await locator.boundingBox())!;

/** What a button and a field look like: the properties a customer sees. */
/**
 * How an element is drawn at rest: the pointer is moved off it (a hover would restyle it) and its transitions are
 * let finish, since a colour read mid-transition is an interpolated value (serialised as oklab), not the style.
 */
const looks = async (locator: Locator) => {
  await locator.page().mouse.move(0, 0);
  return locator.evaluate(async (element) => {
    await Promise.all(element.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
    const style = getComputedStyle(element);
    return { background: style.backgroundColor, color: style.color, radius: style.borderTopLeftRadius, font: style.fontFamily.split(',')[0], height: Math.round(element.getBoundingClientRect().height) };
  });
};

async function fillForm(page: Page): Promise<void> {
  await page.getByLabel('First name').fill('Chidi');
  await page.getByLabel('Last name').fill('Okeke');
  await page.getByLabel('E-mail').fill('chidi@example.test');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
}

describe('one design system for the hosted pages and the widget', () => {
  for (const width of [1000, 320]) {
    it(`lines the link page's header up with the checkout's panel, on the form and above the checkout (${width} px)`, async () => {
      const { page, problems } = await newPage(browser, { width, height: 1000 });
      await page.goto(await linkUrl());
      const header = page.locator('.link-header');
      const form = page.locator('main');
      const [headerBox, formBox] = [await box(header), await box(form)];
      // The header sits inside the form page's panel, with the panel's own padding on both sides.
      expect(Math.round(headerBox.x - formBox.x)).toBe(Math.round(formBox.x + formBox.width - (headerBox.x + headerBox.width)));

      await fillForm(page);
      const panel = page.locator('ck-checkout .panel');
      await page.getByRole('radio', { name: /^Card/ }).waitFor();
      const [above, checkout] = [await box(page.locator('.link-header')), await box(panel)];
      expect(Math.abs(above.x - checkout.x), 'left edges').toBeLessThanOrEqual(1);
      expect(Math.abs(above.x + above.width - (checkout.x + checkout.width)), 'right edges').toBeLessThanOrEqual(1);
      await screenshot(page, `link-page-aligned-${width}`);
      expect(problems).toEqual([]);
    });
  }

  it("draws the link form's button and fields as the checkout draws its own", async () => {
    const { page, problems } = await newPage(browser);
    const url = await linkUrl();
    await page.goto(url);
    const formButton = await looks(page.getByRole('button', { name: 'Continue to payment' }));
    const formField = await looks(page.getByLabel('First name'));
    await fillForm(page);
    await chooseMethod(page, 'Card');
    const payButton = await looks(page.getByRole('button', { name: /^Pay / }));
    const cardField = await looks(page.getByLabel('Name on card'));
    expect(formButton).toEqual(payButton);
    expect({ ...formField, background: '' }).toEqual({ ...cardField, background: '' });
    expect(formField.background).toBe(cardField.background);
    expect(problems).toEqual([]);
  });
});
