import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { constants, privateDecrypt, publicEncrypt, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { CompactEncrypt, importJWK } from 'jose';
import { z } from 'zod';
import { aliased } from '../../shared/binding.ts';
import { requiredText } from '../../shared/fields.ts';
import type { EncryptionJwk } from '../../shared/keys.ts';
import { fromGatewayKey, generateRsaKeyPair, toGatewayKey } from '../../bff/crypto/gateway-key.ts';
import { deriveRejectionSecret, rejectionMessage, removePkcs1Padding } from '../../bff/crypto/legacy-rsa.ts';
import { chooseThread, RSA_THREAD_NICE, RsaPool, RsaPoolSaturatedError } from '../../bff/crypto/rsa-pool.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { cleanPlace, drivers, newPlace, type Place } from '../support/app.ts';
import { threadPriorities } from '../support/processes.ts';
import {
  encryptJwe,
  encryptJweFor,
  encryptLegacy,
  encryptLegacyWithFfPadding,
  fetchEncryptionKeys,
  pkcs1Block,
  startEchoApp,
} from '../support/encrypt.ts';
import { createMerchant } from '../support/merchant.ts';

const paySchema = z.object({
  reference: requiredText(64),
  paymentoption: aliased(requiredText(20), 'paymentOption', 'paymentmethod'),
  redirectUrl: z.string().optional(),
  card: z.object({ cardnumber: aliased(z.string(), 'cardNumber'), cvv: z.string().optional() }).optional(),
});

const payment = { reference: 'ORD-1001', paymentoption: 'C', card: { cardnumber: '5123450000784608', cvv: '193' } };

const UNREADABLE = '{"status":"failed","statusCode":"VAL400","message":"The data field could not be read."}';

describe.each(drivers)('encrypted request payloads on %s', (driver) => {
  let place: Place;
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let other: IssuedKeys;
  let otherJwks: EncryptionJwk[];
  let beforeDecrypt: (() => Promise<void>) | undefined;

  const send = (data: unknown, apiKey = keys.publishableKey) =>
    app.inject({ method: 'POST', url: '/test/echo', headers: { 'api-key': apiKey }, payload: { data } as object });

  beforeAll(async () => {
    place = newPlace(driver);
    app = await startEchoApp(place, { schema: paySchema, beforeDecrypt: async () => beforeDecrypt?.() });
    [keys, other] = await Promise.all([createMerchant(app), createMerchant(app)]);
    otherJwks = await fetchEncryptionKeys(app, other.publishableKey);
  });
  afterAll(async () => {
    await app.close();
    await cleanPlace(place);
  });

  async function expectDecrypted(data: string, expected: unknown = payment) {
    const response = await send(data);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual(expected);
  }

  it('decrypts a legacy payload encrypted with the gateway key the way the SDKs do', async () => {
    const data = encryptLegacy(keys.encryptionKey, payment);
    expect(data).toHaveLength(684);
    await expectDecrypted(data);
  });

  it('decrypts a legacy block whose padding string is all 0xFF bytes', async () => {
    await expectDecrypted(encryptLegacyWithFfPadding(keys.encryptionKey, payment));
  });

  it('decrypts legacy base64 wrapped at 76 columns, as Android Base64.DEFAULT sends it', async () => {
    const wrapped = encryptLegacy(keys.encryptionKey, payment).replace(/.{76}/g, '$&\n');
    await expectDecrypted(wrapped);
  });

  it.each(['ECDH-ES+A256KW', 'RSA-OAEP-256'] as const)('decrypts a JWE for the published %s key', async (alg) => {
    const data = await encryptJwe(app, keys.publishableKey, payment, alg);
    expect(data.split('.')).toHaveLength(5);
    await expectDecrypted(data);
  });

  it('decrypts an ECDH-ES JWE whose sender set the party information (apu, apv) of the key derivation', async () => {
    const jwk = (await fetchEncryptionKeys(app, keys.publishableKey)).find((key) => key.alg === 'ECDH-ES+A256KW')!;
    const data = await new CompactEncrypt(Buffer.from(JSON.stringify(payment)))
      .setProtectedHeader({ alg: jwk.alg, enc: 'A256GCM', kid: jwk.kid })
      .setKeyManagementParameters({ apu: Buffer.from('Alice'), apv: Buffer.from('Bob') })
      .encrypt(await importJWK(jwk, jwk.alg));
    await expectDecrypted(data);
  });

  it('decrypts a JWE that names no kid, choosing the key by its alg', async () => {
    const jwks = await fetchEncryptionKeys(app, keys.publishableKey);
    for (const jwk of jwks) await expectDecrypted(await encryptJweFor(jwk, payment, { kid: undefined }));
  });

  it('decrypts with the secret key as well as the publishable key', async () => {
    const response = await send(encryptLegacy(keys.encryptionKey, payment), keys.secretKey);
    expect(response.statusCode).toBe(200);
  });

  it('binds decrypted keys case-insensitively and through aliases', async () => {
    const plain = { REFERENCE: 'ORD-7', PaymentMethod: 'C', Card: { CardNumber: '4242424242424242' } };
    const expected = { reference: 'ORD-7', paymentoption: 'C', card: { cardnumber: '4242424242424242' } };
    await expectDecrypted(encryptLegacy(keys.encryptionKey, plain), expected);
    await expectDecrypted(await encryptJwe(app, keys.publishableKey, plain), expected);
  });

  it('reads indented JSON with newlines and escaped slashes', async () => {
    const text = '{\n    "reference": "ORD-8",\r\n    "paymentOption": "C",\n\t"redirectUrl": "https:\\/\\/store.test\\/done"\n}';
    await expectDecrypted(encryptLegacy(keys.encryptionKey, text), { reference: 'ORD-8', paymentoption: 'C', redirectUrl: 'https://store.test/done' });
  });

  it('passes a card number with spaces through as the string it was', async () => {
    const plain = { ...payment, card: { cardNumber: '5123 4500 0078 4608' } };
    await expectDecrypted(encryptLegacy(keys.encryptionKey, plain), { ...payment, card: { cardnumber: '5123 4500 0078 4608' } });
  });

  it('names the missing field of a decrypted payload like the route validator does', async () => {
    const response = await send(await encryptJwe(app, keys.publishableKey, { paymentoption: 'C' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The reference field is required.' });
  });

  it('names the data field when the body has none, as for any plain body', async () => {
    const response = await app.inject({ method: 'POST', url: '/test/echo', headers: { 'api-key': keys.publishableKey }, payload: {} });
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The data field is required.' });
  });

  const flipByte = (base64: string, index: number) => {
    const bytes = Buffer.from(base64, 'base64');
    bytes[index]! ^= 0x01;
    return bytes.toString('base64');
  };
  const replaceJwePart = (jwe: string, index: number, part: string) => jwe.split('.').map((value, at) => (at === index ? part : value)).join('.');
  const headerPart = (header: object) => Buffer.from(JSON.stringify(header)).toString('base64url');
  const findJwk = (jwks: EncryptionJwk[], alg: EncryptionJwk['alg']) => jwks.find((jwk) => jwk.alg === alg)!;

  const unreadable: [string, () => Promise<string> | string][] = [
    ['bad base64', () => '!!! this is not base64 !!!'],
    ['an empty string', () => ''],
    ['base64 of the wrong length', () => randomBytes(256).toString('base64')],
    ['a legacy ciphertext with one flipped byte (bad padding)', () => flipByte(encryptLegacy(keys.encryptionKey, payment), 200)],
    ['a legacy ciphertext for another merchant\'s key', () => encryptLegacy(other.encryptionKey, payment)],
    ['a JWE for another merchant\'s ECDH key', () => encryptJweFor(findJwk(otherJwks, 'ECDH-ES+A256KW'), payment)],
    ['a JWE for another merchant\'s RSA-OAEP key, without a kid', () => encryptJweFor(findJwk(otherJwks, 'RSA-OAEP-256'), payment, { kid: undefined })],
    ['a JWE for another merchant\'s ECDH key, without a kid', () => encryptJweFor(findJwk(otherJwks, 'ECDH-ES+A256KW'), payment, { kid: undefined })],
    ['a JWE with a tampered ciphertext', async () => {
      const jwe = await encryptJwe(app, keys.publishableKey, payment, 'RSA-OAEP-256');
      const ciphertext = Buffer.from(jwe.split('.')[3]!, 'base64url');
      ciphertext[0]! ^= 0x01;
      return replaceJwePart(jwe, 3, ciphertext.toString('base64url'));
    }],
    ['an ECDH-ES JWE whose ephemeral key is a point off the curve', async () => {
      const jwe = await encryptJwe(app, keys.publishableKey, payment);
      const header = JSON.parse(Buffer.from(jwe.split('.')[0]!, 'base64url').toString()) as { epk: { y: string } };
      const y = Buffer.from(header.epk.y, 'base64url');
      y[31]! ^= 0x01;
      return replaceJwePart(jwe, 0, headerPart({ ...header, epk: { ...header.epk, y: y.toString('base64url') } }));
    }],
    ['an ECDH-ES JWE with a tampered wrapped key', async () => {
      const jwe = await encryptJwe(app, keys.publishableKey, payment);
      const wrapped = Buffer.from(jwe.split('.')[1]!, 'base64url');
      wrapped[5]! ^= 0x01;
      return replaceJwePart(jwe, 1, wrapped.toString('base64url'));
    }],
    ['an ECDH-ES JWE that asks for compression', async () => {
      const jwe = await encryptJwe(app, keys.publishableKey, payment);
      const header = JSON.parse(Buffer.from(jwe.split('.')[0]!, 'base64url').toString()) as object;
      return replaceJwePart(jwe, 0, headerPart({ ...header, zip: 'DEF' }));
    }],
    ['a JWE whose header names the legacy algorithm', async () =>
      replaceJwePart(await encryptJwe(app, keys.publishableKey, payment), 0, headerPart({ alg: 'RSA-PKCS1-4096', enc: 'A256GCM' }))],
    ['a JWE whose header is not JSON', async () => replaceJwePart(await encryptJwe(app, keys.publishableKey, payment), 0, 'bm90IGpzb24')],
    ['five dots of nothing', () => 'a....'],
    ['plain JSON instead of a ciphertext', () => JSON.stringify(payment)],
    ['an encrypted text that is not JSON', () => encryptLegacy(keys.encryptionKey, 'reference=ORD-1&paymentoption=C')],
    ['encrypted JSON that is an array', () => encryptLegacy(keys.encryptionKey, [payment])],
    ['encrypted JSON that is a number', () => encryptLegacy(keys.encryptionKey, '42')],
    ['encrypted JSON that is null, in a JWE', () => encryptJwe(app, keys.publishableKey, 'null')],
  ];

  it.each(unreadable)('answers %s with the one byte-identical VAL400', async (_name, build) => {
    const response = await send(await build());
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(UNREADABLE);
  });

  it('refuses legacy payloads once the merchant switches legacy mode off, and still reads JWE', async () => {
    const switched = await createMerchant(app);
    await app.storage.query('UPDATE merchants SET legacy_encryption = false WHERE id = $1', [switched.subsidiaryId]);
    const legacy = await send(encryptLegacy(switched.encryptionKey, payment), switched.publishableKey);
    expect(legacy.statusCode).toBe(400);
    expect(legacy.body).toBe(UNREADABLE);
    const modern = await send(await encryptJwe(app, switched.publishableKey, payment), switched.publishableKey);
    expect(modern.statusCode).toBe(200);
  });

  it('decrypts off the event loop: a plain request is answered while twenty legacy payloads are decrypted', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const payloads = Array.from({ length: 20 }, (_, index) => encryptLegacy(keys.encryptionKey, { ...payment, reference: `ORD-${index}` }));
    let waiting = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Hold every request just before decryption, then let all twenty in at once.
    beforeDecrypt = async () => {
      waiting += 1;
      await gate;
    };
    const finished: string[] = [];
    try {
      const legacy = payloads.map(async (data) => {
        const response = await fetch(`${address}/test/echo`, {
          method: 'POST',
          headers: { 'api-key': keys.publishableKey, 'content-type': 'application/json' },
          body: JSON.stringify({ data }),
        });
        const body = await response.json();
        finished.push('legacy');
        return { status: response.status, reference: body.data?.reference };
      });
      await vi.waitFor(() => expect(waiting).toBe(20), { timeout: 20_000, interval: 5 });
      const completedBefore = app.rsaPool.completed;
      release();
      const health = await fetch(`${address}/health`);
      finished.push('health');

      const results = await Promise.all(legacy);
      expect(health.status).toBe(200);
      expect(finished.indexOf('health')).toBeLessThan(20);
      expect(results).toEqual(payloads.map((_, index) => ({ status: 200, reference: `ORD-${index}` })));
      expect(app.rsaPool.completed - completedBefore).toBe(20);
    } finally {
      beforeDecrypt = undefined;
    }
  });

  it('runs up to one RSA worker thread per core, started by legacy payloads rather than up front, at a lower priority than the event loop', async () => {
    const pool = new RsaPool({ queuePerThread: 64 });
    try {
      expect(pool.liveThreads).toBe(0);
      const { publicKey, privateKey } = await generateRsaKeyPair(2048);
      const der = privateKey.export({ format: 'der', type: 'pkcs8' });
      const blocks = Array.from({ length: 40 }, () => publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, randomBytes(32)));
      await Promise.all(blocks.map((block) => pool.decrypt('raw', 1, der, block)));
      expect(pool.liveThreads).toBe(availableParallelism());
      expect(pool.completed).toBe(40);
      // Linux keeps the nice value per thread: the pools' threads (this one's and the app's), and only they, run below
      // the event loop's priority.
      const { own, lowered } = threadPriorities(process.pid);
      expect(lowered).toEqual(Array.from({ length: pool.liveThreads + app.rsaPool.liveThreads }, () => Math.min(19, own + RSA_THREAD_NICE)));
    } finally {
      await pool.close();
    }
  });
});

describe('removing PKCS#1 v1.5 padding with implicit rejection', () => {
  const secret = deriveRejectionSecret(randomBytes(32));
  const ciphertext = randomBytes(512);
  const message = Buffer.from('{"reference":"ORD-1"}');
  const rejection = rejectionMessage(ciphertext, secret);

  const withByte = (block: Buffer, index: number, value: number) => {
    const copy = Buffer.from(block);
    copy[index] = value;
    return copy;
  };

  it('returns the message of a well-formed block with a random padding string', () => {
    expect(removePkcs1Padding(pkcs1Block(message), ciphertext, secret)).toEqual(message);
  });

  it('returns the message of a block padded with 0xFF bytes', () => {
    expect(removePkcs1Padding(pkcs1Block(message, { psByte: 0xff }), ciphertext, secret)).toEqual(message);
  });

  it('accepts a padding string of exactly eight bytes and an empty message', () => {
    const longest = randomBytes(501);
    expect(removePkcs1Padding(pkcs1Block(longest), ciphertext, secret)).toEqual(longest);
    expect(removePkcs1Padding(pkcs1Block(Buffer.alloc(0)), ciphertext, secret)).toEqual(Buffer.alloc(0));
  });

  it.each([
    ['a padding string of seven bytes', () => withByte(pkcs1Block(message), 9, 0x00)],
    ['no 00 separator after the padding', () => Buffer.concat([Buffer.from([0x00, 0x02]), Buffer.alloc(510, 0xff)])],
    ['a leading 00 01 (signature padding)', () => withByte(pkcs1Block(message, { psByte: 0xff }), 1, 0x01)],
    ['a leading byte that is not 00', () => withByte(pkcs1Block(message), 0, 0x01)],
  ])('returns the deterministic rejection message for %s', (_name, block) => {
    const result = removePkcs1Padding(block(), ciphertext, secret);
    expect(result).toEqual(rejection);
    expect(removePkcs1Padding(block(), ciphertext, secret)).toEqual(result);
  });

  it('derives the rejection message from the ciphertext and the secret, with a length that varies', () => {
    expect(rejectionMessage(ciphertext, secret)).toEqual(rejection);
    expect(rejectionMessage(randomBytes(512), secret)).not.toEqual(rejection);
    expect(rejectionMessage(ciphertext, deriveRejectionSecret(randomBytes(32)))).not.toEqual(rejection);
    const lengths = new Set(Array.from({ length: 8 }, () => rejectionMessage(randomBytes(512), secret).length));
    expect(lengths.size).toBeGreaterThan(1);
    for (const length of lengths) expect(length).toBeLessThanOrEqual(501);
  });

  it('derives the rejection secret from the master key, deterministically', () => {
    const master = randomBytes(32);
    expect(deriveRejectionSecret(master)).toEqual(deriveRejectionSecret(master));
    expect(deriveRejectionSecret(master)).toHaveLength(32);
    expect(deriveRejectionSecret(master)).not.toEqual(master);
  });

  it('agrees with OpenSSL on a real RSA-4096 block', async () => {
    const pair = await generateRsaKeyPair();
    const encrypted = publicEncrypt({ key: fromGatewayKey(toGatewayKey(pair.publicKey)), padding: constants.RSA_PKCS1_PADDING }, message);
    const block = privateDecrypt({ key: pair.privateKey, padding: constants.RSA_NO_PADDING }, encrypted);
    expect(removePkcs1Padding(block, encrypted, secret)).toEqual(message);
  });
});

describe('the RSA worker pool', () => {
  let pool: RsaPool;
  let der: Buffer;
  let publicKey: Awaited<ReturnType<typeof generateRsaKeyPair>>['publicKey'];

  beforeAll(async () => {
    const pair = await generateRsaKeyPair(2048);
    publicKey = pair.publicKey;
    der = pair.privateKey.export({ type: 'pkcs8', format: 'der' });
    pool = new RsaPool({ threads: 1, maxQueue: 2 });
  });
  afterAll(() => pool.close());

  it('returns the raw RSA block and the OAEP message', async () => {
    const block = pkcs1Block(Buffer.from('hi'), { blockLength: 256 });
    const raw = await pool.decrypt('raw', 1, der, publicEncrypt({ key: publicKey, padding: constants.RSA_NO_PADDING }, block));
    expect(Buffer.from(raw!)).toEqual(block);
    const oaep = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from('key'));
    expect(Buffer.from((await pool.decrypt('oaep-sha256', 1, der, oaep))!)).toEqual(Buffer.from('key'));
  });

  it('reads a key and a block that are views inside larger buffers, as pooled small Buffers are', async () => {
    const block = pkcs1Block(Buffer.from('in a view'), { blockLength: 256 });
    const encrypted = publicEncrypt({ key: publicKey, padding: constants.RSA_NO_PADDING }, block);
    const inside = (bytes: Buffer) => Buffer.concat([Buffer.alloc(7, 0xaa), bytes, Buffer.alloc(5, 0xbb)]).subarray(7, 7 + bytes.length);
    const raw = await pool.decrypt('raw', 2, inside(der), inside(encrypted));
    expect(Buffer.from(raw!)).toEqual(block);
  });

  it('gives a task to an idle thread, and a second one to a busy thread only once every thread has started', () => {
    const thread = (currentUsage: number) => ({ currentUsage });
    const idle = thread(0);
    expect(chooseThread([thread(1), idle], 2)).toBe(idle);
    // One of two threads is still starting: the task waits for it rather than queue behind a running one.
    expect(chooseThread([thread(1)], 2)).toBeNull();
    const lighter = thread(1);
    expect(chooseThread([thread(2), lighter], 2)).toBe(lighter);
    expect(chooseThread([thread(2), thread(2)], 2)).toBeNull();
  });

  it('answers undefined when the RSA primitive refuses the input', async () => {
    expect(await pool.decrypt('raw', 1, der, Buffer.alloc(256, 0xff))).toBeUndefined();
    expect(await pool.decrypt('oaep-sha256', 1, der, randomBytes(256))).toBeUndefined();
  });

  it('refuses work beyond its queue bound instead of queueing without limit', async () => {
    const input = publicEncrypt({ key: publicKey, padding: constants.RSA_NO_PADDING }, pkcs1Block(Buffer.from('x'), { blockLength: 256 }));
    const tasks = Array.from({ length: 8 }, () => pool.decrypt('raw', 1, der, input));
    const settled = await Promise.allSettled(tasks);
    const refused = settled.filter((result) => result.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(RsaPoolSaturatedError);
    expect(settled.filter((result) => result.status === 'fulfilled').length).toBeGreaterThanOrEqual(2);
  });
});
