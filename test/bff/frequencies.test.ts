import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, useTestApp } from '../support/app.ts';
import { createMerchant } from '../support/merchant.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';

const EXPECTED = [
  [1, 'Hourly', 1, 0],
  [2, 'Daily', 24, 1],
  [3, 'Weekly', 168, 7],
  [4, 'Bi-Weekly', 336, 14],
  [5, 'Every 3 Weeks', 504, 21],
  [6, 'Monthly', 720, 30],
  [7, 'Bi-Monthly', 1440, 60],
  [8, 'Every 3 Months', 2160, 90],
  [9, 'Every 6 Months', 4320, 180],
  [10, 'Yearly', 8760, 365],
  [11, 'Bi-Yearly', 17520, 730],
];

describe.each(drivers)('GET /checkout/frequencies on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app);
  });

  it('returns exactly the eleven frequencies in order, with every documented member', async () => {
    const response = await app.inject({ method: 'GET', url: '/checkout/frequencies', headers: { 'api-key': keys.publishableKey } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'success', statusCode: '00', message: 'Operation successful' });
    expect(body.data.map((f: { id: number; name: string; hours: number; days: number }) => [f.id, f.name, f.hours, f.days])).toEqual(EXPECTED);
    for (const frequency of body.data) {
      expect(Object.keys(frequency).sort()).toEqual(
        ['hours', 'days', 'name', 'description', 'isActive', 'id', 'dateCreated', 'dateUpdated', 'dateDeleted', 'createdBy', 'updatedBy', 'deletedBy'].sort(),
      );
      expect([null, true]).toContain(frequency.isActive);
    }
  });

  it('answers the secret key as well as the publishable key', async () => {
    const response = await app.inject({ method: 'GET', url: '/checkout/frequencies', headers: { 'api-key': keys.secretKey } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toHaveLength(11);
  });
});
