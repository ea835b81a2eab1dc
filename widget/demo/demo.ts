import type { CheckoutEventType } from '../embed/protocol.ts';
import type { CheckoutResult } from '../embed/types.ts';

/**
 * The demo merchant page: an inline `<checkout-widget>`, a modal through `Checkout.open`, the gateway-compatible
 * `CheckoutNS.PaymentCheckout`, and a log of every `checkout:*` event the page receives (the end-to-end tests read
 * it). The backend fills in the sandbox merchant's publishable key. The inline order's reference is kept for the
 * tab, as a merchant's server would keep it, so a reload shows the same order.
 */
const EVENTS: CheckoutEventType[] = ['checkout:ready', 'checkout:pending', 'checkout:success', 'checkout:error', 'checkout:close'];
const REFERENCE_KEY = 'demo-shop:inline-reference';

const config = readConfig();
const apiKey = String(config['api-key'] ?? '');
const log = document.getElementById('event-log')!;
const inline = document.querySelector('checkout-widget#inline-checkout');

function readConfig(): Record<string, unknown> {
  try {
    return JSON.parse(document.getElementById('checkout-config')?.textContent ?? '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

function record(event: string, source: string, details: Record<string, string | null | undefined>): void {
  const entry = document.createElement('li');
  entry.dataset['event'] = event;
  entry.dataset['source'] = source;
  for (const [name, value] of Object.entries(details)) if (value) entry.dataset[name] = value;
  entry.textContent = [event, source, ...Object.entries(details).map(([name, value]) => (value ? `${name}=${value}` : ''))].filter(Boolean).join(' · ');
  log.append(entry);
}

function newReference(prefix: string): string {
  return `${prefix}-${Date.now().toString(36).toUpperCase()}-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
}

function inlineReference(renew = false): string {
  let reference = renew ? null : sessionStorage.getItem(REFERENCE_KEY);
  if (!reference) {
    reference = newReference('DEMO');
    sessionStorage.setItem(REFERENCE_KEY, reference);
  }
  return reference;
}

for (const type of EVENTS) {
  document.addEventListener(type, (event) => {
    const source = event.target instanceof HTMLElement ? event.target.id || event.target.getAttribute('mode') || 'page' : 'page';
    record(type, source, {
      reference: event.reference,
      status: event.status,
      method: 'method' in event ? String(event.method) : undefined,
      code: 'code' in event ? String(event.code) : undefined,
    });
  });
}

function showReference(reference: string): void {
  document.getElementById('inline-reference')!.textContent = reference;
}

if (inline) {
  const reference = inlineReference();
  showReference(reference);
  inline.setAttribute('reference', reference);
  inline.setAttribute('api-key', apiKey);
  document.getElementById('new-order')!.addEventListener('click', () => {
    const fresh = inlineReference(true);
    showReference(fresh);
    inline.setAttribute('reference', fresh);
  });
}

document.getElementById('open-modal')!.addEventListener('click', () => {
  if (!window.Checkout) return record('embed:missing', 'modal', {});
  window.Checkout.open({
    apiKey,
    reference: newReference('MODAL'),
    amount: 5000,
    currency: 'NGN',
    description: 'Gift card',
    email: 'ada@example.test',
    firstName: 'Ada',
    lastName: 'Obi',
    country: 'NG',
    onSuccess: (event) => record('callback:success', 'modal', { reference: event.reference }),
    onError: (event) => record('callback:error', 'modal', { code: event.code }),
    onClose: () => record('callback:close', 'modal', {}),
  }).then(
    (result: CheckoutResult) => record('open:resolved', 'modal', { outcome: result.outcome, reference: result.reference, status: result.status }),
    (error: { code?: string }) => record('open:rejected', 'modal', { code: error.code }),
  );
});

document.getElementById('open-compat')!.addEventListener('click', () => {
  if (!window.CheckoutNS) return record('embed:missing', 'compat', {});
  new window.CheckoutNS.PaymentCheckout({
    apiKey,
    encryptionKey: '',
    amount: 2500,
    currency: 'NGN',
    email: 'ada@example.test',
    firstName: 'Ada',
    lastName: 'Obi',
    mobile: '+2348012345678',
    country: 'NG',
    reference: newReference('COMPAT'),
    description: 'Concert ticket',
    onCompleted: (result) => record('compat:completed', 'compat', { status: result.status, reference: result.reference }),
    onClose: () => record('compat:close', 'compat', {}),
  }).init();
});
