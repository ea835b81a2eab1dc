import { fork } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/**
 * The answer times of a plain GET asked `rate` times a second on a fixed schedule, for the benchmark's "a plain
 * endpoint beside saturated legacy RSA" line. Each request leaves at its own time, whether or not the ones before it
 * have been answered (an open loop), so a slow answer delays no other request and every answer is counted once.
 *
 * autocannon is not used for this line: its rate limit sends a second's requests back to back, and its correction for
 * coordinated omission takes `Math.ceil(1 / rate)` milliseconds as the interval between requests (autocannon 9.0,
 * lib/run.js), 1 ms at any rate, so one answer of N ms is counted as N answers; of the few hundred this line sends,
 * the 99th percentile it reported was the slowest answer.
 *
 * It runs in a process of its own (`startPacedSampler`): in the process that drives the load beside it, its answers
 * were read late whenever that process's collector paused it (major collections of 12-20 ms, seen beside the slowest
 * answers).
 *
 * `urls` are the addresses the requests alternate between (a cluster's one port named once per process): each has a
 * keep-alive agent of its own, so each holds its own connections.
 */
export async function pacedLatencies(urls: string[], path: string, rate: number, count: number): Promise<{ latenciesMs: number[]; seconds: number }> {
  const agents = urls.map(() => new http.Agent({ keepAlive: true }));
  const intervalMs = 1000 / rate;
  const started = performance.now();
  const ask = (index: number) =>
    new Promise<number>((resolve, reject) => {
      const sent = performance.now();
      const request = http.get(`${urls[index % urls.length]}${path}`, { agent: agents[index % agents.length] }, (response) => {
        response.resume();
        response.once('end', () => (response.statusCode === 200 ? resolve(performance.now() - sent) : reject(new Error(`${path} answered ${response.statusCode}`))));
      });
      request.setTimeout(20_000, () => request.destroy(new Error(`${path} did not answer within 20 s`)));
      request.once('error', reject);
    });
  const answers: Promise<number>[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      const wait = started + index * intervalMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      answers.push(ask(index));
    }
    const latenciesMs = await Promise.all(answers);
    return { latenciesMs, seconds: (performance.now() - started) / 1000 };
  } finally {
    await Promise.allSettled(answers);
    for (const agent of agents) agent.destroy();
  }
}

/** The value at quantile `q` (0 to 1) of `values`, nearest rank. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

type PacedTask = { urls: string[]; path: string; rate: number; count: number };
type PacedResult = { latenciesMs: number[]; seconds: number } | { error: string };

/** A process of its own that asks on a schedule (`pacedLatencies`) when told to; started before the load it goes beside. */
export async function startPacedSampler(): Promise<{ run(task: PacedTask): Promise<{ latenciesMs: number[]; seconds: number }>; close(): void }> {
  const child = fork(fileURLToPath(import.meta.url), ['--paced-sampler'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the paced sampler exited with ${code} before it was ready`)));
  });
  return {
    run: (task) =>
      new Promise((resolve, reject) => {
        const exited = (code: number | null) => reject(new Error(`the paced sampler exited with ${code} before it answered`));
        child.once('exit', exited);
        child.once('message', (result: PacedResult) => {
          child.off('exit', exited);
          if ('error' in result) reject(new Error(result.error));
          else resolve(result);
        });
        child.send(task);
      }),
    close: () => void child.kill(),
  };
}

if (process.argv.includes('--paced-sampler') && process.send) {
  process.on('message', (task: PacedTask) => {
    pacedLatencies(task.urls, task.path, task.rate, task.count).then(
      (result) => process.send!(result),
      (error: Error) => process.send!({ error: error.message }),
    );
  });
  process.send('ready');
}
