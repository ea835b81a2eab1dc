import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { TEST_DATABASE_URL, type Driver } from '../support/app.ts';
import { fuzzEndpoint, fuzzMessages, makeFixtures, startFuzzApp, storedDataFindings, type EndpointReport } from './harness.ts';

/**
 * `npm run fuzz`: every endpoint, page and the frame's message guards, FUZZ_RUNS inputs each (default 10,000), each
 * endpoint bounded by FUZZ_SECONDS (default 600), on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL.
 * FUZZ_ONLY=<text> keeps the endpoints whose method and path contain it; FUZZ_SEED and FUZZ_PATH replay a failure. Prints a table and writes
 * test-results/fuzz-<drivers>.json; exits 1 on any 5xx, malformed error, stack trace, echoed card number or inconsistent row.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
const seconds = Number(process.env.FUZZ_SECONDS ?? 600);
const only = process.env.FUZZ_ONLY;
// A failure prints the seed and path that replay it (with FUZZ_ONLY naming its endpoint).
const replay = { seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined, path: process.env.FUZZ_PATH };
const drivers: Driver[] = process.env.FUZZ_DRIVERS ? (process.env.FUZZ_DRIVERS.split(',') as Driver[]) : TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

const started = Date.now();
const summary: { driver: Driver; endpoints: EndpointReport[]; findings: string[] }[] = [];
let failed = false;
for (const driver of drivers) {
  const fuzz = await startFuzzApp(driver);
  try {
    const fixtures = await makeFixtures(fuzz.app);
    const endpoints: EndpointReport[] = [];
    const chosen = fuzz.endpoints.filter((endpoint) => !only || `${endpoint.method} ${endpoint.url}`.includes(only));
    process.stdout.write(`${driver}: ${chosen.length} endpoints, ${runs} inputs each (at most ${seconds} s each)\n`);
    for (const endpoint of chosen) {
      const report = await fuzzEndpoint(fuzz.app, endpoint, fixtures, { runs, timeLimitMs: seconds * 1000, seed: replay.seed, path: replay.path });
      endpoints.push(report);
      const codes = Object.entries(report.statuses).map(([code, count]) => `${code}:${count}`).join(' ');
      process.stdout.write(`  ${report.failure ? 'FAIL' : 'ok  '} ${report.endpoint.padEnd(52)} ${String(report.runs).padStart(6)} inputs ${String(Math.round(report.milliseconds / 1000)).padStart(4)} s  5xx ${report.serverErrors}  ${codes}\n`);
      if (report.failure) {
        failed = true;
        process.stdout.write(`       ${report.failure.replace(/\n/g, '\n       ')}\n`);
      }
    }
    const findings = await storedDataFindings(fuzz.app);
    for (const finding of findings) process.stdout.write(`  stored data: ${finding}\n`);
    if (findings.length > 0) failed = true;
    summary.push({ driver, endpoints, findings });
  } finally {
    await fuzz.close();
  }
}
const messages = await fuzzMessages(runs, seconds * 1000);
process.stdout.write(`frame message guards: ${messages.runs} messages, ${messages.accepted} accepted, ${messages.failure ?? 'every accepted one well-formed'}\n`);
if (messages.failure) failed = true;

const total = summary.flatMap((entry) => entry.endpoints);
const result = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  runsPerEndpoint: runs,
  seconds: Math.round((Date.now() - started) / 1000),
  inputs: total.reduce((sum, report) => sum + report.runs, 0),
  serverErrors: total.reduce((sum, report) => sum + report.serverErrors, 0),
  minimumInputs: Math.min(...total.map((report) => report.runs)),
  messages,
  drivers: summary,
};
mkdirSync('test-results', { recursive: true });
writeFileSync(`test-results/fuzz-${drivers.join('-')}.json`, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`${result.inputs} inputs in ${result.seconds} s, fewest at one endpoint ${result.minimumInputs}, 5xx ${result.serverErrors}: ${failed ? 'FAILED' : 'passed'}\n`);
process.exit(failed ? 1 : 0);
