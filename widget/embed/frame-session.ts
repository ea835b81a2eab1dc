/** Why a checkout could not be shown at all (`Checkout.open` rejects with it; the element fires `checkout:error`). */
export class CheckoutEmbedError extends Error {
  constructor(
    /** The envelope code (`AUTH403` for an origin the merchant did not allow, `AUTH401`, …), `NETWORK`, or `TIMEOUT` (the frame never started). */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CheckoutEmbedError';
  }
}

export interface FrameSession {
  frameUrl: string;
  frameOrigin: string;
}

/**
 * Opens an embedding session: the checkout checks this page's origin (the browser sends it in the Origin header)
 * against the merchant's allowed origins and answers with a frame URL that only this origin may frame.
 */
export async function openFrameSession(apiBase: string, apiKey: string): Promise<FrameSession> {
  let response: Response;
  try {
    response = await fetch(`${apiBase.replace(/\/+$/, '')}/checkout/embed/sessions`, {
      method: 'POST',
      headers: { accept: 'application/json', 'api-key': apiKey },
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new CheckoutEmbedError('NETWORK', 'The checkout service could not be reached.');
  }
  const answer = (await response.json().catch(() => undefined)) as { status?: unknown; statusCode?: unknown; message?: unknown; data?: { frameUrl?: unknown } } | undefined;
  const frameUrl = answer?.status === 'success' ? answer.data?.frameUrl : undefined;
  if (typeof frameUrl === 'string') {
    const url = new URL(frameUrl, apiBase);
    if (url.protocol === 'https:' || url.protocol === 'http:') return { frameUrl: url.href, frameOrigin: url.origin };
  }
  throw new CheckoutEmbedError(
    typeof answer?.statusCode === 'string' ? answer.statusCode : 'UNREADABLE',
    typeof answer?.message === 'string' ? answer.message : `The checkout service answered ${response.status}.`,
  );
}
