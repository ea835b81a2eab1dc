import fp from 'fastify-plugin';
import { hkdfSync } from 'node:crypto';
import type { Config } from '../config.ts';
import { SandboxProcessor } from '../processor/sandbox.ts';
import type { Clock } from '../services/clock.ts';
import { DeadlineService } from '../services/deadlines.ts';
import { FeeService } from '../services/fees.ts';
import { LinkService } from '../services/links.ts';
import { MerchantService } from '../services/merchants.ts';
import { OrderService } from '../services/orders.ts';
import { PaymentService } from '../services/payments.ts';
import { Settlement } from '../services/settlement.ts';

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    merchants: MerchantService;
    links: LinkService;
    fees: FeeService;
    payments: PaymentService;
    deadlines: DeadlineService;
    orders: OrderService;
  }
}

/** Builds the domain services once, on the app's storage and clock, and hands them to the routes. */
export default fp<{ config: Config; clock: Clock; masterKey: Buffer }>(
  async (app, { config, clock, masterKey }) => {
    const otpSecret = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'checkout sandbox one-time codes', 32));
    const links = new LinkService(app.storage, config.publicBaseUrl);
    // Test mode runs on the sandbox; live mode has no acquirer connector in this build, so live payments are refused
    // rather than pretending to charge real cards.
    const processors = { test: new SandboxProcessor(() => clock.now()) };
    const settlement = new Settlement(app.storage, clock);
    const deadlines = new DeadlineService(app.storage, processors, clock, settlement);
    const settings = { publicBaseUrl: config.publicBaseUrl, transferExpiryMinutes: config.transferExpiryMinutes, otpSecret };
    const payments = new PaymentService(app.storage, processors, clock, settings, settlement, deadlines);
    app.decorate('clock', clock);
    app.decorate('merchants', new MerchantService(app.storage, masterKey));
    app.decorate('links', links);
    app.decorate('fees', new FeeService(app.storage));
    app.decorate('payments', payments);
    app.decorate('deadlines', deadlines);
    app.decorate('orders', new OrderService(app.storage, links, deadlines, clock));
  },
  { name: 'services', dependencies: ['storage'] },
);
