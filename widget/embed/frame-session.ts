/** Why a checkout could not be shown at all (`Checkout.open` rejects with it; the element fires `checkout:error`). */
export class CheckoutEmbedError extends Error {
  constructor(
    /**
     * The envelope code (`AUTH403` for an origin the merchant did not allow, `AUTH401`, …), `CSP` (this page's
     * Content-Security-Policy kept the checkout out), or `TIMEOUT` (the frame never started).
     */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CheckoutEmbedError';
  }
}
