import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drivers } from '../support/app.ts';
import { fuzzEndpoint, fuzzMessages, makeFixtures, startFuzzApp, storedDataFindings, type Fixtures, type FuzzApp } from '../fuzz/harness.ts';

/**
 * The fuzz harness of `npm run fuzz` (test/fuzz/harness.ts) at a small scale: a few hundred arbitrary inputs at
 * every route the app registers (FUZZ_TEST_RUNS, default 300), each answered without a 5xx, with the error
 * envelope for a 4xx, without a stack trace or an echoed card number, and with orders created only by successful
 * creates; then the stored orders and payments are checked for states the lifecycle does not allow.
 */
const runs = Number(process.env.FUZZ_TEST_RUNS ?? 300);

describe.each(drivers)('arbitrary requests on %s', (driver) => {
  let fuzz: FuzzApp;
  let fixtures: Fixtures;

  beforeAll(async () => {
    fuzz = await startFuzzApp(driver);
    fixtures = await makeFixtures(fuzz.app);
  });
  afterAll(async () => {
    await fuzz?.close();
  });

  it('answers every endpoint and page without a 5xx, a malformed error, a stack trace or an echoed card number', async () => {
    expect(fuzz.endpoints.map((endpoint) => `${endpoint.method} ${endpoint.url}`)).toEqual(
      expect.arrayContaining(['POST /checkout/order/create', 'POST /checkout/order/pay', 'GET /l/:reference', 'GET /checkout/frame/:token', 'GET /checkout/3ds/:paymentReference']),
    );
    const failures: string[] = [];
    for (const endpoint of fuzz.endpoints) {
      const report = await fuzzEndpoint(fuzz.app, endpoint, fixtures, { runs, timeLimitMs: 60_000 });
      if (report.failure) failures.push(`${report.endpoint}: ${report.failure}`);
      else expect(report.runs, report.endpoint).toBe(runs);
    }
    expect(failures).toEqual([]);
  }, 900_000);

  it('leaves every stored order and payment in a state the lifecycle allows, each open attempt with its job', async () => {
    expect(await storedDataFindings(fuzz.app)).toEqual([]);
  });
});

describe("the frame's message guards", () => {
  it('let through only well-formed messages with known settings of the right types, and never throw', async () => {
    const report = await fuzzMessages(runs * 10, 60_000);
    expect(report.failure).toBeUndefined();
    expect(report.accepted).toBeGreaterThan(0);
  });
});
