/**
 * WebAuthn's JSON forms in the browser: the server's options (`PublicKeyCredentialRequestOptionsJSON` and
 * `...CreationOptionsJSON`, base64url for every binary field) into what `navigator.credentials` takes, and the
 * credential it answers back into the JSON the server verifies (the shape `@simplewebauthn/browser` sends). Written
 * here rather than taken from that library: the dashboard needs these few conversions only, and they load with the
 * sign-in's chunk.
 */

export function fromBase64url(text: string): ArrayBuffer {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes.buffer;
}

export function toBase64url(buffer: ArrayBuffer | ArrayBufferView): string {
  const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

type Descriptor = { id: string; type?: string; transports?: string[] };

const descriptor = (each: Descriptor): PublicKeyCredentialDescriptor => ({
  id: fromBase64url(each.id),
  type: 'public-key',
  ...(each.transports ? { transports: each.transports as AuthenticatorTransport[] } : {}),
});

/** The server's options for `navigator.credentials.get`. */
export function requestOptions(json: Record<string, unknown>): PublicKeyCredentialRequestOptions {
  const { challenge, allowCredentials, ...rest } = json as { challenge: string; allowCredentials?: Descriptor[] };
  return {
    ...(rest as Omit<PublicKeyCredentialRequestOptions, 'challenge'>),
    challenge: fromBase64url(challenge),
    ...(allowCredentials ? { allowCredentials: allowCredentials.map(descriptor) } : {}),
  };
}

/** What the server verifies: the assertion with each binary field in base64url. */
export function assertionJson(credential: PublicKeyCredential) {
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: 'public-key' as const,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
      ...(response.userHandle ? { userHandle: toBase64url(response.userHandle) } : {}),
    },
    clientExtensionResults: credential.getClientExtensionResults() as Record<string, unknown>,
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
  };
}

/** Why a ceremony did not finish: the person said no (or let it time out), or this browser cannot. */
export type CeremonyFailure = 'cancelled' | 'unavailable';

export class CeremonyError extends Error {
  constructor(readonly failure: CeremonyFailure) {
    super(failure);
  }
}

/** `navigator.credentials.get` with the server's options, answered as the server's JSON. */
export async function getAssertion(options: Record<string, unknown>) {
  if (typeof PublicKeyCredential === 'undefined' || !navigator.credentials) throw new CeremonyError('unavailable');
  let credential: Credential | null;
  try {
    credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  } catch (error) {
    throw new CeremonyError(error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError') ? 'cancelled' : 'unavailable');
  }
  if (!(credential instanceof PublicKeyCredential)) throw new CeremonyError('cancelled');
  return assertionJson(credential);
}
