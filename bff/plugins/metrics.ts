import fp from 'fastify-plugin';
import { createServer } from 'node:http';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { STATUS_NAMES } from '../domain/lifecycle.ts';
import { operationalCounts, type OperationalCounts } from '../repositories/metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's Prometheus metrics (served on METRICS_PORT, never on the API's port). */
    metrics: { registry: Registry };
  }
}

/**
 * Prometheus metrics of this process: requests by route and code with their latency, and, read from the database
 * when scraped, payment attempts by outcome, the job queue's depth and webhook deliveries (failed ones included).
 * The database figures are the same from every process, so across a cluster they are aggregated with `max`
 * (not summed); request counts and latencies are summed. Routes are labelled by their pattern (`/l/:reference`),
 * never by the address asked for, so capabilities in paths never reach a label and the label set stays small.
 */
export default fp<{ defaultMetrics: boolean }>(
  async (app, { defaultMetrics }) => {
    const registry = new Registry();
    if (defaultMetrics) collectDefaultMetrics({ register: registry });
    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({ name: 'checkout_http_requests_total', help: 'HTTP requests answered, by route pattern and status code', labelNames, registers: [registry] });
    const latency = new Histogram({
      name: 'checkout_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by route pattern and status code',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    // The database is read once per scrape for all the gauges below, whose values the registry renders side by side.
    let reading: Promise<OperationalCounts | undefined> | undefined;
    const read = (): Promise<OperationalCounts | undefined> => {
      if (reading) return reading;
      const current = operationalCounts(app.storage, app.clock.now()).catch((error: unknown) => {
        app.log.warn({ err: error }, 'metrics: the database figures could not be read');
        return undefined;
      });
      reading = current;
      void current.finally(() => {
        if (reading === current) reading = undefined;
      });
      return current;
    };
    new Gauge({
      name: 'checkout_payment_attempts',
      help: 'Payment attempts by outcome (status), payment option and mode, from the database',
      labelNames: ['status', 'option', 'mode'] as const,
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const counts = await read();
        if (!counts) return;
        this.reset();
        for (const row of counts.paymentsByOutcome) {
          const status = STATUS_NAMES[row.status_id as keyof typeof STATUS_NAMES] ?? String(row.status_id);
          this.set({ status, option: row.payment_option, mode: row.mode }, row.count);
        }
      },
    });
    new Gauge({
      name: 'checkout_jobs',
      help: 'Durable jobs by state: due (waiting for a process), scheduled (later), running (leased), dead (gave up)',
      labelNames: ['state'] as const,
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const counts = await read();
        if (counts) for (const [state, count] of Object.entries(counts.jobs)) this.set({ state }, count);
      },
    });
    new Gauge({
      name: 'checkout_webhook_deliveries',
      help: 'Webhook deliveries by status (failed: out of retries), from the database',
      labelNames: ['status'] as const,
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const counts = await read();
        if (!counts) return;
        for (const status of ['pending', 'succeeded', 'failed']) this.set({ status }, counts.deliveriesByStatus.find((row) => row.status === status)?.count ?? 0);
      },
    });
    new Gauge({
      name: 'checkout_webhook_failed_attempts',
      help: 'Webhook delivery attempts that got no 2xx answer (each is retried until the delivery fails)',
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const counts = await read();
        if (counts) this.set(counts.failedDeliveryAttempts);
      },
    });
    new Gauge({
      name: 'checkout_database_scrape_ok',
      help: '1 when the database figures of this scrape were read, 0 when the database did not answer',
      aggregator: 'min',
      registers: [registry],
      async collect() {
        this.set((await read()) ? 1 : 0);
      },
    });

    app.decorate('metrics', { registry });
    app.addHook('onResponse', async (request, reply) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) };
      requests.inc(labels);
      latency.observe(labels, reply.elapsedTime / 1000);
    });
  },
  // Registered first, so its hook sees every route; the storage and clock it reads exist by the first scrape.
  { name: 'metrics' },
);

export type MetricsListener = { url: string; close(): Promise<void> };

/**
 * Serves `GET /metrics` on a listener of its own (METRICS_HOST:METRICS_PORT): operators' figures about every
 * merchant, so they stay off the API's port, where only merchants' keys are checked.
 */
export async function listenForMetrics(where: { host: string; port: number }, render: () => Promise<string>, contentType: string): Promise<MetricsListener> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at GET /metrics.\n');
      return;
    }
    render().then(
      (body) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected; try again.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : where.port;
  const host = where.host.includes(':') ? `[${where.host}]` : where.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let aggregator: AggregatorRegistry<typeof Registry.PROMETHEUS_CONTENT_TYPE> | undefined;

/** In a cluster worker: answers the primary's requests for this process's metrics. */
export function exposeToPrimary(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  aggregator ??= new AggregatorRegistry();
}

/** In the cluster's primary: every worker's metrics, aggregated (sums, or `max` for the database's figures). */
export function workersMetrics(): Promise<string> {
  aggregator ??= new AggregatorRegistry();
  return aggregator.clusterMetrics();
}
