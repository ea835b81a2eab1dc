import { createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPairAsync = promisify(generateKeyPair);

/** RSA-4096 for the legacy scheme; generation runs on libuv's thread pool, not the event loop. */
export async function generateRsaKeyPair(modulusLength = 4096): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  return generateKeyPairAsync('rsa', { modulusLength, publicExponent: 65537 });
}

const base64UrlToBase64 = (text: string) => Buffer.from(text, 'base64url').toString('base64');

/**
 * protocol.md section 2: base64(utf8("4096!" + "<RSAKeyValue><Modulus>" + B64(n) + "</Modulus><Exponent>" +
 * B64(e) + "</Exponent></RSAKeyValue>")). JWK export gives n and e as minimal big-endian integers (no leading
 * zero byte), exactly what the gateway's .NET `RSA.ToXmlString` produced.
 */
export function toGatewayKey(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error('gateway keys are RSA keys');
  const bits = Buffer.from(jwk.n, 'base64url').length * 8;
  const xml = `<RSAKeyValue><Modulus>${base64UrlToBase64(jwk.n)}</Modulus><Exponent>${base64UrlToBase64(jwk.e)}</Exponent></RSAKeyValue>`;
  return Buffer.from(`${bits}!${xml}`, 'utf8').toString('base64');
}

/** The reverse, the way the gateway's client SDKs read the key: split on `!`, take the XML's Modulus and Exponent. */
export function fromGatewayKey(gatewayKey: string): KeyObject {
  const text = Buffer.from(gatewayKey, 'base64').toString('utf8');
  const xml = text.split('!')[1] ?? '';
  const modulus = /<Modulus>([^<]+)<\/Modulus>/.exec(xml)?.[1];
  const exponent = /<Exponent>([^<]+)<\/Exponent>/.exec(xml)?.[1];
  if (!modulus || !exponent) throw new Error('not a gateway key');
  const toUrl = (b64: string) => Buffer.from(b64, 'base64').toString('base64url');
  return createPublicKey({ key: { kty: 'RSA', n: toUrl(modulus), e: toUrl(exponent) }, format: 'jwk' });
}

export function toGatewayKeyFromPem(publicPem: string): string {
  return toGatewayKey(createPublicKey(publicPem));
}
