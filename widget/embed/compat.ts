import { openCheckout, newReference } from './open.ts';
import type { PaymentCheckoutOptions } from './types.ts';

/**
 * The gateway's own front-end global, for pages already written against it:
 * `new CheckoutNS.PaymentCheckout({...}).init()` opens the modal checkout. `onCompleted` is called once, with
 * `successful` when the order is paid, or `failed` when the customer closes the checkout after a final failure
 * (a decline or an expired transfer account) without paying; `onClose` when the checkout closes.
 */
export class PaymentCheckout {
  constructor(private readonly options: PaymentCheckoutOptions) {}

  init(): void {
    const options = this.options;
    const reference = options.merchantReference || options.reference || newReference();
    let completed = false;
    let failed = false;
    const complete = (status: 'successful' | 'failed') => {
      if (completed) return;
      completed = true;
      options.onCompleted?.({ status, reference });
    };
    openCheckout({
      apiKey: options.apiKey,
      amount: Number(options.amount),
      currency: options.currency,
      reference,
      email: options.email,
      firstName: options.firstName,
      lastName: options.lastName,
      mobile: options.mobile,
      country: options.country,
      description: options.description,
      onSuccess: () => complete('successful'),
      onError: (event) => (failed ||= event.status === 'Failed' || event.status === 'Reversed'),
      onClose: () => {
        if (failed) complete('failed');
        options.onClose?.();
      },
    }).catch(() => options.onClose?.());
  }
}
