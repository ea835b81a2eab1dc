import { expect } from 'chai';
import { compactDecrypt, decodeProtectedHeader } from 'jose';
import { encryptCompact } from '../../../widget/api/jwe.ts';
import type { PublicEncryptionKey } from '../../../widget/api/wire.ts';

/** The widget's JWE on WebCrypto, opened by jose (the library the server's JWE support is checked against). */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function recipient(kind: 'EC' | 'RSA'): Promise<{ key: PublicEncryptionKey; privateKey: CryptoKey }> {
  if (kind === 'EC') {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
    const { x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey);
    return { key: { kty: 'EC', crv: 'P-256', x: x!, y: y!, alg: 'ECDH-ES+A256KW', kid: 'ec-key', use: 'enc' }, privateKey: pair.privateKey };
  }
  const pair = (await crypto.subtle.generateKey({ name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, [
    'encrypt',
    'decrypt',
  ])) as CryptoKeyPair;
  const { n, e } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  return { key: { kty: 'RSA', n: n!, e: e!, alg: 'RSA-OAEP-256', kid: 'rsa-key', use: 'enc' }, privateKey: pair.privateKey };
}

describe('the widget encrypts payloads as JWE compact serializations', () => {
  for (const kind of ['EC', 'RSA'] as const) {
    it(`that jose opens, with its key's alg, A256GCM and kid in the protected header (${kind})`, async () => {
      const { key, privateKey } = await recipient(kind);
      for (const text of ['{}', JSON.stringify({ reference: 'ORD-1', card: { cardnumber: '4242424242424242' } }), 'é'.repeat(1000)]) {
        const jwe = await encryptCompact(encoder.encode(text), key);
        expect(jwe.split('.')).to.have.length(5);
        const header = decodeProtectedHeader(jwe);
        expect(header).to.include({ alg: key.alg, enc: 'A256GCM', kid: key.kid });
        if (kind === 'EC') expect(header.epk).to.have.keys(['kty', 'crv', 'x', 'y']);
        const { plaintext } = await compactDecrypt(jwe, privateKey);
        expect(decoder.decode(plaintext)).to.equal(text);
      }
    });
  }

  it('uses a fresh content key, IV and ephemeral key every time', async () => {
    const { key } = await recipient('EC');
    const [first, second] = await Promise.all([encryptCompact(encoder.encode('same'), key), encryptCompact(encoder.encode('same'), key)]);
    const parts = (jwe: string) => jwe.split('.');
    expect(parts(first!)[0]).not.to.equal(parts(second!)[0]);
    expect(parts(first!)[1]).not.to.equal(parts(second!)[1]);
    expect(parts(first!)[2]).not.to.equal(parts(second!)[2]);
  });

  it('cannot be opened once any part is changed (the header is authenticated)', async () => {
    const { key, privateKey } = await recipient('EC');
    const jwe = await encryptCompact(encoder.encode('{"amount":5000}'), key);
    const [header, ...rest] = jwe.split('.');
    const altered = [header!.slice(0, -2) + (header!.endsWith('A') ? 'B' : 'A') + header!.slice(-1), ...rest].join('.');
    let failed = false;
    try {
      await compactDecrypt(altered, privateKey);
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
  });
});
