import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aliased, bindKeys } from '../../shared/binding.ts';

const schema = z.object({
  reference: z.string(),
  paymentoption: aliased(z.string(), 'paymentOption', 'paymentmethod'),
  card: z.object({ cardnumber: aliased(z.string(), 'cardNumber') }).optional(),
  items: z.array(z.object({ name: z.string() })).optional(),
});

describe('binding keys case-insensitively', () => {
  it('maps any casing and declared aliases to the canonical keys, through nested objects and arrays', () => {
    expect(bindKeys({ REFERENCE: 'r', PaymentMethod: 'C', Card: { CardNumber: '4242' }, ITEMS: [{ NAME: 'a' }] }, schema)).toEqual({
      reference: 'r',
      paymentoption: 'C',
      card: { cardnumber: '4242' },
      items: [{ name: 'a' }],
    });
  });

  it('prefers the canonical spelling when a client sends it with an alias', () => {
    expect(bindKeys({ paymentmethod: 'BT', paymentoption: 'C' }, schema)).toMatchObject({ paymentoption: 'C' });
    expect(bindKeys({ paymentoption: 'C', paymentmethod: 'BT' }, schema)).toMatchObject({ paymentoption: 'C' });
  });

  it('leaves unknown keys and non-objects alone', () => {
    expect(bindKeys({ extra: 1 }, schema)).toEqual({ extra: 1 });
    expect(bindKeys('text', schema)).toBe('text');
    expect(bindKeys(null, schema)).toBeNull();
  });

  it('treats keys named like Object.prototype members as unknown keys, at any level', () => {
    const payload = JSON.parse('{"reference":"r","toString":1,"constructor":{"a":1},"hasOwnProperty":2,"valueOf":3,"card":{"cardNumber":"4242","constructor":4}}');
    expect(bindKeys(payload, schema)).toEqual({ reference: 'r', toString: 1, constructor: { a: 1 }, hasOwnProperty: 2, valueOf: 3, card: { cardnumber: '4242', constructor: 4 } });
  });

  it('drops a __proto__ key instead of letting it replace the bound object’s prototype', () => {
    const bound = bindKeys(JSON.parse('{"reference":"r","__proto__":{"polluted":true}}'), schema) as Record<string, unknown>;
    expect(bound).toEqual({ reference: 'r' });
    expect(Object.getPrototypeOf(bound)).toBe(Object.prototype);
    expect(bound.polluted).toBeUndefined();
  });
});

describe('binding null members', () => {
  const withNulls = z.object({
    reference: z.string(),
    card: z.object({ cardnumber: z.string(), billingaddress: z.object({ city: z.string() }).optional() }).optional(),
    note: z.string().nullable().optional(),
  });

  it('binds an optional member sent as null as absent, at any depth, so the schema accepts it', () => {
    const payload = { reference: 'r', card: { cardnumber: '4242', billingaddress: null }, unknown: null };
    expect(bindKeys(payload, withNulls)).toEqual({ reference: 'r', card: { cardnumber: '4242' }, unknown: null });
    expect(withNulls.safeParse(bindKeys({ reference: 'r', card: null }, withNulls)).success).toBe(true);
  });

  it('keeps null for a member whose schema gives null a meaning, and for a required member', () => {
    expect(bindKeys({ reference: null, note: null }, withNulls)).toEqual({ reference: null, note: null });
  });
});
