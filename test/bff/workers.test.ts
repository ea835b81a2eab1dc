import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { clusterRsaThreads } from '../../bff/process.ts';
import { cleanPlace, newPlace, TEST_DATABASE_URL } from '../support/app.ts';
import { card, newReference, orderPayload } from '../support/checkout.ts';
import { encryptLegacy } from '../support/encrypt.ts';
import { bannerKeys, HttpClient, startBackendProcess, threadPriorities, type BackendProcess } from '../support/processes.ts';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

type LogLine = { pid?: number; reqId?: string; msg?: string; req?: { url?: string }; role?: string };

/** The server processes that answered requests to `path`, from their own log lines (pid and request id). */
function pidsServing(output: string, path: string): Set<number> {
  const lines = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
  return new Set(lines.filter((line) => line.msg === 'incoming request' && line.req?.url === path).map((line) => line.pid!));
}

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)('npm start with WORKERS=2 on one PostgreSQL and one Redis', () => {
  const place = newPlace('postgres');
  let server: BackendProcess;
  let client: HttpClient;
  let database: pg.Client;

  beforeAll(async () => {
    server = await startBackendProcess(place, {
      WORKERS: '2',
      REDIS_URL: TEST_REDIS_URL!,
      LOG_LEVEL: 'info',
      JOBS_POLL_MS: '100',
      RATE_LIMIT_PER_LINK: '10',
      RATE_LIMIT_FAILURES_PER_IP: '1000000',
    }, { compiled: true });
    client = new HttpClient(bannerKeys(server.banner));
    database = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${place.schema}` });
    await database.connect();
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await database?.end();
    await cleanPlace(place);
  });

  it('runs two server processes on one port and prints one banner with the sandbox merchant made once', async () => {
    expect(server.banner).toContain('processes: 2 (node:cluster');
    expect(server.banner.match(/A sandbox merchant was created/g)).toHaveLength(1);
    expect((await database.query('SELECT count(*)::int AS count FROM merchants')).rows[0].count).toBe(1);
  });

  it('takes each payment exactly once while both processes answer attempts to pay the same order at the same moment', async () => {
    const references = Array.from({ length: 8 }, () => newReference('WRK'));
    for (const reference of references) {
      expect((await client.encrypted(server.port, '/checkout/order/create', orderPayload(reference))).statusCode).toBe('01');
    }
    // Four attempts per order, all at once, over fresh connections the cluster hands to either process.
    const answers = await Promise.all(
      references.flatMap((reference) =>
        Array.from({ length: 4 }, async () => ({
          reference,
          answer: await client.encrypted(server.port, '/checkout/order/pay', { reference, paymentoption: 'C', card: card('5555555555554444') }),
        })),
      ),
    );
    for (const reference of references) {
      const codes = answers.filter((each) => each.reference === reference).map((each) => each.answer.statusCode);
      expect(codes.filter((code) => code === '00'), `${reference}: ${codes.join(', ')}`).toHaveLength(1);
      expect(codes.filter((code) => code !== '00').every((code) => code === 'CON409')).toBe(true);
    }
    // Both processes took pay requests.
    expect(pidsServing(server.output(), '/checkout/order/pay').size).toBe(2);
    const rows = await database.query<{ reference: string; successful: number; approved: number }>(
      `SELECT o.reference,
              count(*) FILTER (WHERE p.status_id = 5)::int AS successful,
              count(c.reference) FILTER (WHERE c.state = 'approved')::int AS approved
         FROM orders o JOIN order_payments p ON p.order_id = o.id LEFT JOIN sandbox_charges c ON c.reference = p.reference
        WHERE o.reference = ANY($1) GROUP BY o.reference`,
      [references],
    );
    expect(rows.rows).toHaveLength(references.length);
    for (const row of rows.rows) expect(row, row.reference).toMatchObject({ successful: 1, approved: 1 });
  });

  it('counts the requests both processes receive against one limit kept in Redis', async () => {
    const reference = randomBytes(16).toString('base64url');
    // A connection per post (no keep-alive), so the cluster hands them to both processes.
    const post = () =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port: server.port, path: `/l/${reference}`, method: 'POST', agent: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
          (response) => {
            response.resume();
            response.once('end', () => resolve(response.statusCode!));
          },
        );
        request.once('error', reject);
        request.end('firstname=Ada');
      });
    const statuses: number[] = [];
    for (let index = 0; index < 16; index += 1) statuses.push(await post());
    // Ten posts per window to one link in all: the eleventh is refused whichever process it reaches.
    expect(statuses.slice(0, 10).every((status) => status === 303)).toBe(true);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    expect(pidsServing(server.output(), `/l/***`).size).toBe(2);
  });

  it('gives each process twice its share of the cores in legacy RSA threads, at most one per core, each below the event loop priority', async () => {
    const encryptionKey = /encryptionKey:\s+(\S+)/.exec(server.banner)![1]!;
    const reference = newReference('RSA');
    expect((await client.encrypted(server.port, '/checkout/order/create', orderPayload(reference))).statusCode).toBe('01');
    const body = JSON.stringify({ data: encryptLegacy(encryptionKey, { reference }) });
    // Fresh connections, all at once: the cluster hands them to both processes, and each starts its pool's threads.
    const post = () =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port: server.port, path: '/checkout/order/status', method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'api-key': bannerKeys(server.banner).publishableKey } },
          (response) => {
            response.resume();
            response.once('end', () => resolve(response.statusCode!));
          },
        );
        request.once('error', reject);
        request.end(body);
      });
    const statuses = await Promise.all(Array.from({ length: 24 }, post));
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(16);
    const workers = readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    expect(workers).toHaveLength(2);
    const rsaThreads = workers.map((pid) => threadPriorities(pid).lowered.length);
    const threads = clusterRsaThreads(availableParallelism(), 2);
    expect(rsaThreads).toEqual([threads, threads]);
  });

  it('shuts down gracefully on SIGTERM: every process stops and the primary exits with 0', async () => {
    const workers = [...pidsServing(server.output(), '/checkout/order/pay')];
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const shuttingDown = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"shutting down"'))
      .map((line) => (JSON.parse(line) as LogLine).pid);
    expect(new Set(shuttingDown)).toEqual(new Set(workers));
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe.runIf(TEST_DATABASE_URL)('a cluster whose primary is killed', () => {
  const place = newPlace('postgres');
  afterAll(async () => {
    await cleanPlace(place);
  });

  it('ends its workers too, instead of leaving processes nothing restarts', async () => {
    const server = await startBackendProcess(place, { WORKERS: '2' }, { compiled: true });
    const primary = server.child.pid!;
    const workers = readFileSync(`/proc/${primary}/task/${primary}/children`, 'utf8').trim().split(/\s+/).map(Number);
    expect(workers).toHaveLength(2);
    server.child.kill('SIGKILL');
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 40_000;
    while (workers.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(workers.filter(alive)).toEqual([]);
  }, 120_000);
});
