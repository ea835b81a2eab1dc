import { expect } from 'chai';
import { emulateMedia } from '@web/test-runner-commands';
import '../../../widget/embed/embed.ts';
import { CheckoutCloseEvent, CheckoutErrorEvent, CheckoutSuccessEvent } from '../../../widget/events.ts';
import type { CheckoutWidgetElement } from '../../../widget/embed/checkout-widget.ts';
import { EmbeddedFrame } from '../../../widget/embed/embedded-frame.ts';
import type { CheckoutEmbedError } from '../../../widget/embed/frame-session.ts';
import { PROTOCOL } from '../../../widget/embed/protocol.ts';
import { waitFor } from '../support/dom.ts';
import { otherOrigin, RELAY_PATH, RelayLog } from '../support/relay.ts';

/**
 * The embed script's side of the protocol, against a stand-in frame on another origin (the relay, which the test
 * server also answers `POST /checkout/frame` with: web-test-runner.config.mjs); the e2e tests run the real backend
 * and the real checkout frame.
 */
const frameOrigin = otherOrigin();
const frameUrl = `${frameOrigin}${RELAY_PATH}`;
const success = { protocol: PROTOCOL, kind: 'event', event: { type: 'checkout:success', reference: 'ORD-7', status: 'Successful' } };
const Widget = customElements.get('checkout-widget') as unknown as typeof CheckoutWidgetElement;

/** The forms posted into frames since the last call, as the stand-in received them. */
async function framePosts(): Promise<Record<string, string>[]> {
  return (await fetch('/checkout/frame/posts')).json() as Promise<Record<string, string>[]>;
}

/** The hidden forms the elements on this page hold (one until its frame says ready). */
function widgetForms(): HTMLFormElement[] {
  return [...document.querySelectorAll('checkout-widget')].flatMap((element) => [...(element.shadowRoot?.querySelectorAll('form') ?? [])]);
}

async function inlineWidget(log: RelayLog): Promise<{ widget: CheckoutWidgetElement; frame: HTMLIFrameElement }> {
  const widget = document.createElement('checkout-widget');
  widget.setAttribute('api-key', 'pk_test_embed');
  widget.setAttribute('reference', 'ORD-7');
  widget.setAttribute('amount', '2500');
  widget.setAttribute('email', 'ada@example.test');
  widget.setAttribute('first-name', 'Ada');
  widget.setAttribute('items', '[{"name":"Tea","amount":2500}]');
  document.body.append(widget);
  const frame = await waitFor(() => widget.shadowRoot?.querySelector('iframe'));
  await waitFor(() => log.hasLoaded(frame.contentWindow, frameOrigin));
  return { widget, frame };
}

/**
 * The real checkout page (widget/checkout.html with widget/main.ts and widget/checkout.css) written into a frame the
 * widget opened on this origin, configured as the backend configures a frame: `embedded`, and this page as the
 * parent origin. Same origin, so the test can read the framed document's styles.
 */
async function realCheckoutIn(frame: HTMLIFrameElement): Promise<Document> {
  const origin = window.location.origin;
  // The frame's own fetch: this page's is the session stub.
  const page = (await (await frame.contentWindow!.fetch(`${origin}/widget/checkout.html`)).text())
    .replace(/(href|src)="\/(?!\/)/g, `$1="${origin}/widget/`)
    .replace('<script type="application/json" id="checkout-config">{}</script>', () =>
      `<script type="application/json" id="checkout-config">${JSON.stringify({ embedded: true, 'parent-origin': origin })}</script>`,
    );
  const framed = frame.contentDocument!;
  framed.open();
  framed.write(page);
  framed.close();
  return framed;
}

/**
 * The colour scheme an element is drawn with: `light-dark()` picks its first colour in a light used colour scheme
 * and its second in a dark one.
 */
function usedScheme(element: HTMLElement): 'light' | 'dark' {
  element.style.setProperty('caret-color', 'light-dark(rgb(0, 0, 1), rgb(0, 0, 2))');
  return getComputedStyle(element).caretColor === 'rgb(0, 0, 1)' ? 'light' : 'dark';
}

describe('<checkout-widget> and the embed script', () => {
  let log: RelayLog;
  let restore: () => void = () => undefined;
  beforeEach(async () => {
    log = new RelayLog();
    Widget.defaultApiBase = frameOrigin;
    await framePosts();
  });
  afterEach(() => {
    log.stop();
    restore();
    Widget.defaultApiBase = '';
    for (const element of document.querySelectorAll('checkout-widget, iframe')) element.remove();
  });

  it('opens its frame with one form posted into it, the key and settings in the body and never in a URL, and no other request', async () => {
    const original = window.fetch;
    const fetched: string[] = [];
    window.fetch = (input, init) => (fetched.push(String(input)), original(input, init));
    restore = () => (window.fetch = original);
    const { frame } = await inlineWidget(log);
    window.fetch = original;
    expect(fetched).to.deep.equal([]);
    const settings = { 'api-key': 'pk_test_embed', reference: 'ORD-7', 'customer-email': 'ada@example.test', 'customer-first-name': 'Ada', amount: 2500, items: [{ name: 'Tea', amount: 2500 }] };
    const [posted, ...others] = await framePosts();
    expect(others).to.deep.equal([]);
    expect({ ...posted, settings: JSON.parse(posted!['settings']!) }).to.deep.equal({ 'api-key': 'pk_test_embed', 'parent-origin': window.location.origin, settings, modal: 'false' });
    expect(frame.getAttribute('src')).to.equal(null);
    expect(frame.name).to.match(/^checkout-\d+-\d+$/);
    expect(frame.title).to.equal('Checkout');
    expect(log.received).to.deep.equal([]);

    // The frame says it is ready (again after each page it loads): the settings, only to its origin.
    await log.post(frame.contentWindow!, { protocol: PROTOCOL, kind: 'ready' });
    await waitFor(() => log.received.length === 1);
    expect(log.received[0]).to.deep.equal({ protocol: PROTOCOL, kind: 'settings', modal: false, settings });
    expect(widgetForms()).to.deep.equal([]);
  });

  it('takes the same settings from properties with the attributes\' names: text reflected, items as an array, even set before it was defined', async () => {
    const widget = document.createElement('checkout-widget');
    widget.apiKey = 'pk_test_embed';
    widget.reference = 'ORD-8';
    widget.amount = 3000;
    widget.firstName = 'Ada';
    widget.email = 'ada@example.test';
    widget.theme = 'dark';
    widget.items = [{ name: 'Tea', amount: 1000 }, { name: 'Cake', amount: 2000 }];
    expect([widget.getAttribute('api-key'), widget.getAttribute('amount'), widget.getAttribute('first-name'), widget.getAttribute('theme')]).to.deep.equal(['pk_test_embed', '3000', 'Ada', 'dark']);
    expect(widget.hasAttribute('items'), 'an array is not written into an attribute').to.equal(false);
    expect([widget.mode, widget.currency, widget.amount]).to.deep.equal(['inline', 'NGN', 3000]);
    document.body.append(widget);
    const frame = await waitFor(() => widget.shadowRoot?.querySelector('iframe'));
    await waitFor(() => log.hasLoaded(frame.contentWindow, frameOrigin));
    await log.post(frame.contentWindow!, { protocol: PROTOCOL, kind: 'ready' });
    await waitFor(() => log.received.length === 1);
    expect((log.received[0] as { settings: unknown }).settings).to.deep.equal({
      'api-key': 'pk_test_embed',
      reference: 'ORD-8',
      amount: 3000,
      'customer-email': 'ada@example.test',
      'customer-first-name': 'Ada',
      theme: 'dark',
      items: [{ name: 'Tea', amount: 1000 }, { name: 'Cake', amount: 2000 }],
    });
    widget.items = [{ name: 'Tea', amount: 3000 }];
    await waitFor(() => log.received.length === 2);
    expect((log.received[1] as { settings: { items: unknown } }).settings.items).to.deep.equal([{ name: 'Tea', amount: 3000 }]);
  });

  it('forwards a branding of the right shape to the frame, from attributes, properties or Checkout.open, and drops any other value', async () => {
    const widget = document.createElement('checkout-widget');
    widget.apiKey = 'pk_test_embed';
    widget.reference = 'ORD-9';
    widget.amount = 2500;
    widget.brandColor = '#0A7C59';
    widget.radius = 4;
    widget.font = 'serif';
    widget.density = 'compact';
    expect([widget.getAttribute('brand-color'), widget.getAttribute('radius'), widget.getAttribute('font'), widget.getAttribute('density')]).to.deep.equal(['#0A7C59', '4', 'serif', 'compact']);
    document.body.append(widget);
    const frame = await waitFor(() => widget.shadowRoot?.querySelector('iframe'));
    await waitFor(() => log.hasLoaded(frame.contentWindow, frameOrigin));
    await log.post(frame.contentWindow!, { protocol: PROTOCOL, kind: 'ready' });
    await waitFor(() => log.received.length === 1);
    expect((log.received[0] as { settings: Record<string, unknown> }).settings).to.deep.include({ 'brand-color': '#0A7C59', radius: '4', font: 'serif', density: 'compact' });

    // CSS written into an attribute, a radius out of range, a font not on the list: none of it reaches the frame.
    widget.setAttribute('brand-color', 'red; background: url(https://evil.test/x)');
    widget.setAttribute('radius', '400');
    widget.setAttribute('font', "'Comic Sans MS'");
    widget.setAttribute('density', 'cosy');
    await waitFor(() => log.received.length === 2);
    const settings = (log.received[1] as { settings: Record<string, unknown> }).settings;
    for (const name of ['brand-color', 'radius', 'font', 'density']) expect(settings, name).not.to.have.property(name);
    widget.remove();

    // The same options of Checkout.open.
    void window.Checkout!.open({ apiKey: 'pk_test_embed', amount: 100, brandColor: '#123', radius: 0, font: 'rounded', density: 'comfortable' }).catch(() => undefined);
    const modal = await waitFor(() => document.querySelector<CheckoutWidgetElement>('checkout-widget[mode=modal]'));
    const modalFrame = await waitFor(() => modal.shadowRoot?.querySelector('iframe'));
    await waitFor(() => log.hasLoaded(modalFrame.contentWindow, frameOrigin));
    await log.post(modalFrame.contentWindow!, { protocol: PROTOCOL, kind: 'ready' });
    await waitFor(() => log.received.length === 3);
    expect((log.received[2] as { settings: Record<string, unknown> }).settings).to.deep.include({ 'brand-color': '#123', radius: '0', font: 'rounded', density: 'comfortable' });
    modal.close();
  });

  it('takes a property a page set before embed.js defined the element', async () => {
    const early = document.createElement('div');
    // An element created before its definition keeps own properties; the definition's accessors must pick them up.
    const Widget = customElements.get('checkout-widget')!;
    const widget = document.createElement('checkout-widget-early') as HTMLElement & { items?: unknown; reference?: string };
    widget.items = [{ name: 'Tea', amount: 1000 }];
    widget.reference = 'ORD-EARLY';
    early.append(widget);
    customElements.define('checkout-widget-early', class extends (Widget as typeof HTMLElement) {});
    customElements.upgrade(widget);
    expect(widget.getAttribute('reference')).to.equal('ORD-EARLY');
    expect(widget.items).to.deep.equal([{ name: 'Tea', amount: 1000 }]);
  });

  it('dispatches events only from its own frame while it is on the frame origin, as typed, bubbling, composed events', async () => {
    const { widget, frame } = await inlineWidget(log);
    const heard: CheckoutSuccessEvent[] = [];
    document.addEventListener('checkout:success', (event) => heard.push(event));

    // The page itself, and another frame on the same origin, are not the checkout.
    window.postMessage(success, '*');
    const stranger = document.createElement('iframe');
    stranger.src = frameUrl;
    document.body.append(stranger);
    await waitFor(() => log.hasLoaded(stranger.contentWindow, frameOrigin));
    await log.post(stranger.contentWindow!, success);
    expect(heard).to.have.length(0);

    await log.post(frame.contentWindow!, success);
    await waitFor(() => heard.length === 1);
    expect(heard[0]).to.be.instanceOf(CheckoutSuccessEvent);
    expect(heard[0]!.target).to.equal(widget);
    expect([heard[0]!.reference, heard[0]!.status, heard[0]!.bubbles, heard[0]!.composed]).to.deep.equal(['ORD-7', 'Successful', true, true]);

    // The frame navigated to another origin: what it says from there is not the checkout's.
    frame.contentWindow!.postMessage({ navigate: `${window.location.origin}${RELAY_PATH}` }, '*');
    await waitFor(() => log.hasLoaded(frame.contentWindow, window.location.origin));
    await log.post(frame.contentWindow!, success);
    expect(heard).to.have.length(1);
  });

  it('keeps the inline frame\'s room from the start, so the page below does not move when the frame arrives', async () => {
    const widget = document.createElement('checkout-widget');
    widget.setAttribute('reference', 'ORD-9');
    const below = document.createElement('button');
    below.textContent = 'Below the checkout';
    document.body.append(widget, below);
    const before = below.getBoundingClientRect().top;
    expect(widget.getBoundingClientRect().height).to.be.greaterThan(300);

    widget.setAttribute('api-key', 'pk_test_embed');
    await waitFor(() => widget.shadowRoot?.querySelector('iframe'));
    expect(widget.shadowRoot!.querySelector('.placeholder')).to.equal(null);
    expect(below.getBoundingClientRect().top).to.equal(before);
    below.remove();
  });

  it('grows the inline frame to the height its content reports', async () => {
    const { frame } = await inlineWidget(log);
    await log.post(frame.contentWindow!, { protocol: PROTOCOL, kind: 'resize', height: 640 });
    expect(frame.getBoundingClientRect().height).to.equal(640);
  });

  it('reports a refusal from its frame (an origin the merchant did not allow) as checkout:error, and tells the customer, without a frame', async () => {
    const message = "The origin http://localhost:8000 is not allowed to embed this merchant's checkout.";
    const widget = document.createElement('checkout-widget');
    const errors: CheckoutErrorEvent[] = [];
    widget.addEventListener('checkout:error', (event) => errors.push(event));
    widget.setAttribute('api-key', 'pk_test_embed');
    widget.setAttribute('reference', 'ORD-8');
    document.body.append(widget);
    const frame = await waitFor(() => widget.shadowRoot?.querySelector('iframe'));
    await waitFor(() => log.hasLoaded(frame.contentWindow, frameOrigin));
    log.postLast(frame.contentWindow!, { protocol: PROTOCOL, kind: 'refused', code: 'AUTH403', message });
    await waitFor(() => errors.length === 1);
    expect([errors[0]!.code, errors[0]!.message, errors[0]!.reference]).to.deep.equal(['AUTH403', message, 'ORD-8']);
    expect(widget.shadowRoot!.querySelector('iframe')).to.equal(null);
    expect(widgetForms()).to.deep.equal([]);
    expect(widget.shadowRoot!.querySelector('[role=alert]')!.textContent).to.equal('This checkout is not available on this site.');
  });

  it('takes a refusal only from its own frame', async () => {
    const { widget } = await inlineWidget(log);
    const errors: CheckoutErrorEvent[] = [];
    widget.addEventListener('checkout:error', (event) => errors.push(event));
    const stranger = document.createElement('iframe');
    stranger.src = frameUrl;
    document.body.append(stranger);
    await waitFor(() => log.hasLoaded(stranger.contentWindow, frameOrigin));
    await log.post(stranger.contentWindow!, { protocol: PROTOCOL, kind: 'refused', code: 'AUTH403', message: 'Not from the checkout.' });
    window.postMessage({ protocol: PROTOCOL, kind: 'refused', code: 'AUTH403', message: 'Not from the checkout.' }, '*');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors).to.deep.equal([]);
    expect(widget.shadowRoot!.querySelector('iframe')).not.to.equal(null);
  });

  describe('a frame that never says it is ready (blocked by the browser, an error page)', () => {
    const patience = EmbeddedFrame.readyTimeoutMs;
    beforeEach(() => (EmbeddedFrame.readyTimeoutMs = 400));
    afterEach(() => (EmbeddedFrame.readyTimeoutMs = patience));

    it('reports checkout:error and tells the customer, instead of showing an empty frame for ever', async () => {
        const widget = document.createElement('checkout-widget');
      const errors: CheckoutErrorEvent[] = [];
      widget.addEventListener('checkout:error', (event) => errors.push(event));
      widget.setAttribute('api-key', 'pk_test_embed');
      widget.setAttribute('reference', 'ORD-11');
      document.body.append(widget);
      await waitFor(() => errors.length === 1);
      expect([errors[0]!.code, errors[0]!.reference]).to.deep.equal(['TIMEOUT', 'ORD-11']);
      expect(errors[0]!.message).to.contain('its frame was blocked or could not load');
      expect(widget.shadowRoot!.querySelector('iframe')).to.equal(null);
      expect(widget.shadowRoot!.querySelector('[role=alert]')!.textContent).to.equal('The checkout could not be loaded. Check your connection and reload the page.');
    });

    it('rejects Checkout.open and closes the modal', async () => {
        const failure = await window.Checkout!.open({ apiKey: 'pk_test_embed', reference: 'ORD-12', amount: 1000 }).then(
        () => undefined,
        (error: CheckoutEmbedError) => error,
      );
      expect([failure?.name, failure?.code]).to.deep.equal(['CheckoutEmbedError', 'TIMEOUT']);
      expect(document.querySelector('checkout-widget')).to.equal(null);
    });

    it('does not fail a frame that said it was ready', async () => {
      EmbeddedFrame.readyTimeoutMs = 1500;
        const { widget, frame } = await inlineWidget(log);
      const errors: CheckoutErrorEvent[] = [];
      widget.addEventListener('checkout:error', (event) => errors.push(event));
      await log.post(frame.contentWindow!, { protocol: PROTOCOL, kind: 'ready' });
      await new Promise((resolve) => setTimeout(resolve, 1700));
      expect(errors).to.deep.equal([]);
      expect(widget.shadowRoot!.querySelector('iframe')).to.equal(frame);
    });
  });

  it('Checkout.open shows a modal, resolves when the order is paid, and closes on Escape from the frame with focus back on the opener', async () => {
    const opener = document.createElement('button');
    opener.textContent = 'Pay';
    document.body.append(opener);
    opener.focus();
    const calls: string[] = [];
    const result = window.Checkout!.open({
      apiKey: 'pk_test_embed',
      reference: 'ORD-9',
      amount: 1000,
      onSuccess: (event) => calls.push(`success ${event.reference}`),
      onClose: (event) => calls.push(`close ${event instanceof CheckoutCloseEvent}`),
    });
    const widget = await waitFor(() => document.querySelector('checkout-widget[mode=modal]'));
    const dialog = await waitFor(() => widget.shadowRoot!.querySelector<HTMLDialogElement>('dialog[open]'));
    const frame = dialog.querySelector('iframe')!;
    await waitFor(() => log.hasLoaded(frame.contentWindow, frameOrigin));
    await log.post(frame.contentWindow!, { protocol: PROTOCOL, kind: 'ready' });
    await waitFor(() => log.received.length === 1);
    expect((log.received[0] as { modal: boolean }).modal).to.equal(true);

    await log.post(frame.contentWindow!, { ...success, event: { ...success.event, reference: 'ORD-9' } });
    expect(await result).to.deep.equal({ outcome: 'success', reference: 'ORD-9', status: 'Successful' });
    expect(dialog.open).to.equal(true);

    log.postLast(frame.contentWindow!, { protocol: PROTOCOL, kind: 'escape' });
    await waitFor(() => !document.querySelector('checkout-widget'));
    expect(calls).to.deep.equal(['success ORD-9', 'close true']);
    expect(document.activeElement).to.equal(opener);
  });

  it('CheckoutNS.PaymentCheckout calls onCompleted with failed when the customer closes after a decline', async () => {
    const calls: string[] = [];
    new window.CheckoutNS!.PaymentCheckout({
      apiKey: 'pk_test_embed',
      encryptionKey: 'NDA5NiE8UlNBS2V5VmFsdWU+',
      amount: '1500',
      merchantReference: 'ORD-10',
      reference: 'ignored-when-merchantReference-is-given',
      onCompleted: (outcome) => calls.push(`completed ${outcome.status} ${outcome.reference}`),
      onClose: () => calls.push('close'),
    }).init();
    const widget = await waitFor(() => document.querySelector('checkout-widget[mode=modal]'));
    expect([widget.getAttribute('reference'), widget.getAttribute('amount')]).to.deep.equal(['ORD-10', '1500']);
    const frame = await waitFor(() => widget.shadowRoot!.querySelector<HTMLIFrameElement>('dialog[open] iframe'));
    await waitFor(() => log.hasLoaded(frame.contentWindow, frameOrigin));
    const declined = { protocol: PROTOCOL, kind: 'event', event: { type: 'checkout:error', reference: 'ORD-10', status: 'Failed', code: '05', message: 'Declined' } };
    await log.post(frame.contentWindow!, declined);
    log.postLast(frame.contentWindow!, { protocol: PROTOCOL, kind: 'event', event: { type: 'checkout:close', reference: 'ORD-10', status: 'Failed' } });
    await waitFor(() => calls.length === 2);
    expect(calls).to.deep.equal(['completed failed ORD-10', 'close']);
  });
  describe('on a light merchant page, the framed checkout\'s colour scheme', () => {
    before(() => document.documentElement.style.setProperty('color-scheme', 'light'));
    after(async () => {
      document.documentElement.style.removeProperty('color-scheme');
      await emulateMedia({ colorScheme: 'light' });
    });

    for (const system of ['light', 'dark'] as const) {
      it(`matches the iframe element's for every theme, so the frame stays transparent around the checkout (system ${system})`, async () => {
        await emulateMedia({ colorScheme: system });
        Widget.defaultApiBase = window.location.origin;
        const widget = document.createElement('checkout-widget');
        widget.setAttribute('api-key', 'pk_test_embed');
        widget.setAttribute('reference', 'ORD-13');
        widget.setAttribute('amount', '2500');
        widget.setAttribute('theme', 'light');
        document.body.append(widget);
        const frame = await waitFor(() => widget.shadowRoot?.querySelector('iframe'));
        await waitFor(() => log.hasLoaded(frame.contentWindow, window.location.origin));
        const framed = await realCheckoutIn(frame);
        const checkout = await waitFor(() => framed.querySelector('ck-checkout'));

        // `light` and `dark` as given, then no theme at all (light), then `auto` (the system's).
        for (const theme of ['light', 'dark', undefined, 'auto'] as const) {
          if (theme === undefined) widget.removeAttribute('theme');
          else widget.setAttribute('theme', theme);
          await waitFor(() => checkout.getAttribute('theme') === (theme ?? null) && framed.documentElement.classList.contains('embedded'));
          const root = framed.documentElement;
          // Light unless the merchant asks: no theme is light whatever the system says; `auto` follows it.
          const expected = theme === 'dark' ? 'dark' : theme === 'auto' ? system : 'light';
          expect(usedScheme(root), `the framed page's root, theme ${theme}`).to.equal(expected);
          expect(usedScheme(frame), `the iframe element, theme ${theme}`).to.equal(expected);
          expect(getComputedStyle(frame).colorScheme, `theme ${theme}`).to.equal(framed.defaultView!.getComputedStyle(root).colorScheme);
          // Around the checkout the frame shows the merchant's page.
          expect(framed.defaultView!.getComputedStyle(framed.body).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
        }
      });
    }
  });
});
