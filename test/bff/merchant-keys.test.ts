import { beforeAll, describe, expect, it } from 'vitest';
import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { useTestApp } from '../support/app.ts';
import { createMerchant } from '../support/merchant.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

/** The issued encryption key, read the way the gateway's client SDKs read it. */
describe('the issued encryption key', () => {
  const context = useTestApp('pglite');
  let app: FastifyInstance;
  let keys: IssuedKeys;

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app);
  });

  it('is 1016 characters of base64 starting with the gateway prefix', () => {
    expect(keys.encryptionKey).toHaveLength(1016);
    expect(keys.encryptionKey.startsWith('NDA5NiE8UlNBS2V5VmFsdWU+')).toBe(true);
    expect(Buffer.from(keys.encryptionKey, 'base64').toString('base64')).toBe(keys.encryptionKey);
  });

  it('splits on "!" into "4096" and compact RSAKeyValue XML with a 4096-bit modulus and exponent AQAB', () => {
    const text = Buffer.from(keys.encryptionKey, 'base64').toString('utf8');
    const [bits, xml] = text.split('!');
    expect(bits).toBe('4096');
    expect(xml).toMatch(/^<RSAKeyValue><Modulus>[A-Za-z0-9+/=]+<\/Modulus><Exponent>AQAB<\/Exponent><\/RSAKeyValue>$/);
    const modulus = Buffer.from(/<Modulus>(.*)<\/Modulus>/.exec(xml!)![1]!, 'base64');
    expect(modulus).toHaveLength(512);
    expect(modulus[0]! & 0x80).toBe(0x80);
    // Clients that strip the literal prefix or search for <Modulus> find the same XML.
    expect(text.replace('4096!', '')).toBe(xml);
  });

  it('builds a public key a client can encrypt with, using PKCS#1 v1.5 into one 512-byte block', () => {
    const xml = Buffer.from(keys.encryptionKey, 'base64').toString('utf8');
    const n = /<Modulus>(.*)<\/Modulus>/.exec(xml)![1]!;
    const e = /<Exponent>(.*)<\/Exponent>/.exec(xml)![1]!;
    const key = createPublicKey({ key: { kty: 'RSA', n: Buffer.from(n, 'base64').toString('base64url'), e: Buffer.from(e, 'base64').toString('base64url') }, format: 'jwk' });
    const block = publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from('{"reference":"A1"}'));
    expect(block).toHaveLength(512);
    expect(block.toString('base64')).toHaveLength(684);
  });

  it('keeps the private half sealed at rest', async () => {
    const rows = await app.storage.query<{ sealed: Uint8Array; algorithm: string }>(
      'SELECT private_key_sealed AS sealed, algorithm FROM encryption_keys WHERE merchant_id = $1',
      [keys.subsidiaryId],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const text = Buffer.from(row.sealed).toString('latin1');
      expect(text).not.toContain('PRIVATE KEY');
      // A PKCS#8 DER RSA key starts with 30 82; sealed bytes start with the layout version instead.
      expect(Buffer.from(row.sealed)[0]).toBe(1);
    }
  });
});
