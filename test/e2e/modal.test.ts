import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chooseMethod, clickOnPage, launchBrowser, logEntry, modalCheckout, newPage, openDemo, payByCard, screenshot } from './support/browser.ts';
import { verifyOrder, demoUrl } from './support/server.ts';

const server = inject('server');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Where focus is on the merchant's page, through shadow roots: `checkout-widget[mode=modal] > iframe` inside the modal. */
const focusPath = (page: Page) =>
  page.evaluate(() => {
    const path: string[] = [];
    for (let active = document.activeElement; active; active = active.shadowRoot?.activeElement ?? null) {
      const mode = active.getAttribute('mode');
      path.push(`${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ''}${mode ? `[mode=${mode}]` : ''}`);
    }
    return path.join(' > ');
  });

/** The focused control inside the checkout frame, by its accessible name as a screen reader would start it. */
const focusedControl = (frame: Frame) =>
  frame.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (!active || active === document.body) return 'body';
    const label = active.getAttribute('aria-label') ?? (active instanceof HTMLInputElement ? active.labels?.[0]?.textContent : active.textContent);
    return `${active.tagName.toLowerCase()}:${(label ?? '').trim().replace(/\s+/g, ' ')}`;
  });

async function modalFrame(page: Page): Promise<Frame> {
  const frame = await page.locator('checkout-widget[mode="modal"] dialog[open] iframe').elementHandle().then((handle) => handle?.contentFrame());
  if (!frame) throw new Error('no modal checkout frame');
  return frame;
}

describe('the modal checkout', () => {
  it('works with the keyboard only: opens from its button, keeps focus inside, closes on Escape and gives focus back', async () => {
    const { page, problems } = await newPage(browser);
    await openDemo(page, demoUrl(server));
    for (let presses = 0; (await focusPath(page)) !== 'button#open-modal'; presses += 1) {
      if (presses > 40) throw new Error(`Tab never reached the Checkout.open button; focus is on ${await focusPath(page)}`);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');

    const checkout = modalCheckout(page);
    await checkout.getByRole('radio', { name: /^Card/ }).waitFor();
    await logEntry(page, 'checkout:ready', 'modal').waitFor();
    expect(await focusPath(page)).toBe('checkout-widget[mode=modal] > iframe');
    const frame = await modalFrame(page);

    // Tab goes round the checkout's controls and never reaches the page behind the dialog.
    const visited: string[] = [];
    for (let presses = 0; presses < 6; presses += 1) {
      await page.keyboard.press('Tab');
      visited.push(await focusedControl(frame));
      expect(await focusPath(page)).toBe('checkout-widget[mode=modal] > iframe');
    }
    expect(visited.filter((control) => control === 'button:Close checkout').length).toBeGreaterThanOrEqual(2);
    expect(visited.some((control) => control.startsWith('input:Card'))).toBe(true);

    // Choose the card with the keyboard; Continue joins the round, both ways.
    for (let presses = 0; !(await focusedControl(frame)).startsWith('input:Card'); presses += 1) {
      if (presses > 4) throw new Error('Tab never reached the card option');
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Space');
    await checkout.getByRole('button', { name: 'Continue with card' }).and(checkout.locator(':enabled')).waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedControl(frame)).toBe('button:Continue with card');
    await page.keyboard.press('Tab');
    expect(await focusedControl(frame)).toBe('button:Close checkout');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedControl(frame)).toBe('button:Continue with card');
    expect(await focusPath(page)).toBe('checkout-widget[mode=modal] > iframe');
    await screenshot(page, 'modal-keyboard', false);

    // Escape inside the frame closes the dialog and focus returns to the button that opened it.
    await page.keyboard.press('Escape');
    await logEntry(page, 'open:resolved', 'modal').waitFor();
    expect(await logEntry(page, 'open:resolved', 'modal').getAttribute('data-outcome')).toBe('closed');
    await logEntry(page, 'checkout:close', 'modal').waitFor();
    await logEntry(page, 'callback:close', 'modal').waitFor();
    expect(await page.locator('checkout-widget[mode="modal"]').count()).toBe(0);
    expect(await focusPath(page)).toBe('button#open-modal');
    expect(problems).toEqual([]);
  });

  it('opens from the compatibility global, pays, and calls onCompleted then onClose', async () => {
    const { page, problems } = await newPage(browser);
    await openDemo(page, demoUrl(server));
    // Below the inline frame, which is of another site: see clickOnPage.
    await clickOnPage(page.getByRole('button', { name: /CheckoutNS\.PaymentCheckout/ }));
    const checkout = modalCheckout(page);
    await chooseMethod(checkout, 'Card');
    await payByCard(checkout, '5555 5555 5555 4444');
    await checkout.getByRole('heading', { name: 'Payment successful' }).waitFor();

    const completed = logEntry(page, 'compat:completed', 'compat');
    await completed.waitFor();
    expect(await completed.getAttribute('data-status')).toBe('successful');
    const reference = (await completed.getAttribute('data-reference')) ?? '';
    expect(reference).toMatch(/^COMPAT-/);
    expect(await logEntry(page, 'checkout:success', 'modal', reference).count()).toBe(1);
    await screenshot(page, 'compat-global-paid', false);

    await checkout.getByRole('button', { name: 'Done' }).click();
    await logEntry(page, 'compat:close', 'compat').waitFor();
    expect(await logEntry(page, 'compat:completed').count()).toBe(1);
    expect(await page.locator('checkout-widget[mode="modal"]').count()).toBe(0);
    expect((await verifyOrder(server, reference)).data).toMatchObject({ statusId: 5, status: 'Successful' });
    expect(problems).toEqual([]);
  });
});
