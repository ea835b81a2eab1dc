import fp from 'fastify-plugin';
import { OrderLists } from '../services/order-lists.ts';
import { CustomerLists } from '../services/customer-lists.ts';
import { EventLists } from '../services/event-lists.ts';
import { LinkLists } from '../services/link-lists.ts';
import { SubscriptionLists } from '../services/subscription-lists.ts';
import { OrderDetails } from '../services/order-details.ts';
import { Reports } from '../services/reports.ts';
import { RefundLists } from '../services/refund-lists.ts';
import { createSecretKey, hkdfSync } from 'node:crypto';
import type { Config } from '../config.ts';
import { ClientTokens } from '../crypto/client-tokens.ts';
import { SignedTokens } from '../crypto/signed-tokens.ts';
import type { JobHandlers } from '../jobs/kinds.ts';
import { ProcessorRegistry } from '../processor/registry.ts';
import { purgeExpiredIdempotencyKeys } from '../repositories/idempotency.ts';
import { IDEMPOTENCY_WINDOW_MS } from '../services/idempotency.ts';
import { SandboxProcessor } from '../processor/sandbox/processor.ts';
import type { Clock } from '../services/clock.ts';
import { PaymentDeadlines } from '../services/deadlines.ts';
import { FeeService } from '../services/fees.ts';
import { PaymentLifecycle } from '../services/lifecycle.ts';
import { LinkService } from '../services/links.ts';
import { MerchantCache, MERCHANT_CHANGES_CHANNEL } from '../services/merchant-cache.ts';
import { MerchantService } from '../services/merchants.ts';
import { OrderService } from '../services/orders.ts';
import { Outbox } from '../services/outbox.ts';
import { PaymentService } from '../services/payments.ts';
import { RefundService } from '../services/refunds.ts';
import { SubscriptionService } from '../services/subscriptions.ts';
import { WebhookService } from '../services/webhooks.ts';
import type { Resolve } from '../security/guarded-agents.ts';
import { teamServices } from '../services/team-services.ts';
import type { TeamService } from '../services/team.ts';
import type { SignIn } from '../services/sign-in.ts';
import type { AuditLog } from '../services/team-audit.ts';
import type { TeamSessions } from '../services/team-sessions.ts';
import { purgeFailures } from '../repositories/team-sessions.ts';
import { TEAM_LIMITS } from '../domain/team.ts';

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    merchants: MerchantService;
    links: LinkService;
    fees: FeeService;
    payments: PaymentService;
    refunds: RefundService;
    orders: OrderService;
    outbox: Outbox;
    /** Signs and verifies short-lived tokens (JWT, one key per audience). */
    signedTokens: SignedTokens;
    /** Signs and verifies order client tokens and customer sessions. */
    clientTokens: ClientTokens;
    /** Merchants and their keys as every request reads them, dropped when the database announces a change. */
    merchantCache: MerchantCache;
    webhooks: WebhookService;
    /** The sandbox acquirer (test mode): its 3-D Secure page is served by `routes/sandbox-issuer.ts`. */
    sandbox: SandboxProcessor;
    subscriptions: SubscriptionService;
    /** The merchant's orders as lists, searches and exports (the operations API and the dashboard). */
    orderLists: OrderLists;
    /** The merchant's customers, subscriptions, payment links and events as lists (the operations API). */
    customerLists: CustomerLists;
    subscriptionLists: SubscriptionLists;
    linkLists: LinkLists;
    eventLists: EventLists;
    /** One order with everything stored about it (its timeline), and the merchant's notes on it. */
    orderDetails: OrderDetails;
    /** The merchant's refunds as lists and exports. */
    refundLists: RefundLists;
    /** The merchant's figures over a range (collected, fees, refunds, conversion). */
    reports: Reports;
    /** The merchant's team: members, invitations, roles, second factors. */
    team: TeamService;
    /** The team's server-side sessions. */
    teamSessions: TeamSessions;
    /** Signing in, accepting invitations, resetting passwords. */
    signIn: SignIn;
    /** The team's audit log. */
    audit: AuditLog;
    /** Every durable job kind's handler; the jobs plugin runs them. */
    jobHandlers: JobHandlers;
  }
}

/** Builds the domain services once, on the app's storage and clock, and hands them to the routes and the job runner. */
export default fp<{ config: Config; clock: Clock; masterKey: Buffer; resolveHost?: Resolve | undefined }>(
  async (app, { config, clock, masterKey, resolveHost }) => {
    const otpSecret = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'checkout sandbox one-time codes', 32)));
    const links = new LinkService(app.storage, config.publicBaseUrl);
    // Test mode runs on the sandbox; live mode has no acquirer connector in this build, so the registry refuses
    // live payments rather than pretending to charge real cards.
    const sandbox = new SandboxProcessor(app.storage, () => clock.now(), { publicBaseUrl: config.publicBaseUrl, otpSecret });
    const registry = new ProcessorRegistry([sandbox]);
    const merchantCache = new MerchantCache();
    const outbox = new Outbox(clock, (link, merchant) => links.present(link, merchant), merchantCache);
    const lifecycle = new PaymentLifecycle(app.storage, clock, outbox);
    const settings = { publicBaseUrl: config.publicBaseUrl, transferExpiryMinutes: config.transferExpiryMinutes, processorTimeoutMs: config.processorTimeoutMs };
    const deadlines = new PaymentDeadlines(app.storage, registry, clock, lifecycle, config.processorTimeoutMs);
    const stopListening = await app.storage.listen(MERCHANT_CHANGES_CHANNEL, merchantCache.listener);
    app.addHook('onClose', async () => stopListening().catch(() => undefined));
    app.decorate('merchantCache', merchantCache);
    const webhooks = new WebhookService(
      app.storage,
      clock,
      masterKey,
      { timeoutMs: config.webhookTimeoutMs, destinations: config.webhookDestinations, resolve: resolveHost, endpoints: config.webhookEndpoints },
      app.log,
    );
    // Every event becomes its webhook deliveries in the statement that records it.
    outbox.writeWith(webhooks.writeEvent);
    app.decorate('clock', clock);
    app.decorate('merchants', new MerchantService(app.storage, masterKey, merchantCache));
    app.decorate('links', links);
    const signedTokens = new SignedTokens(masterKey);
    const clientTokens = new ClientTokens(signedTokens);
    app.decorate('signedTokens', signedTokens);
    const orders = new OrderService(app.storage, clock, clientTokens, { publicBaseUrl: config.publicBaseUrl });
    app.decorate('clientTokens', clientTokens);
    app.decorate('fees', new FeeService(orders));
    app.decorate('payments', new PaymentService(app.storage, registry, clock, settings, lifecycle, orders));
    app.decorate('orders', orders);
    const refunds = new RefundService(app.storage, registry, clock, lifecycle, orders, outbox, config.processorTimeoutMs);
    app.decorate('refunds', refunds);
    app.decorate('outbox', outbox);
    app.decorate('webhooks', webhooks);
    app.decorate('sandbox', sandbox);
    const subscriptions = new SubscriptionService(app.storage, registry, clock, outbox, lifecycle, signedTokens, { processorTimeoutMs: config.processorTimeoutMs }, refunds);
    app.decorate('subscriptions', subscriptions);
    const orderLists = new OrderLists(app.storage);
    app.decorate('orderLists', orderLists);
    app.decorate('orderDetails', new OrderDetails(app.storage, clock));
    app.decorate('refundLists', new RefundLists(app.storage));
    app.decorate('reports', new Reports(app.storage, clock));
    app.decorate('customerLists', new CustomerLists(app.storage, orderLists));
    app.decorate('subscriptionLists', new SubscriptionLists(app.storage));
    app.decorate('linkLists', new LinkLists(app.storage, orderLists));
    app.decorate('eventLists', new EventLists(app.storage));
    const team = teamServices(app.storage, clock, masterKey, config.publicBaseUrl);
    app.decorate('team', team.team);
    app.decorate('teamSessions', team.sessions);
    app.decorate('signIn', team.signIn);
    app.decorate('audit', team.audit);
    app.decorate('jobHandlers', {
      ...deadlines.handlers(),
      ...webhooks.handlers(),
      ...refunds.handlers(),
      ...subscriptions.handlers(),
      'maintenance.purge-idempotency-keys': async () => {
        await purgeExpiredIdempotencyKeys(app.storage, new Date(clock.now().getTime() - IDEMPOTENCY_WINDOW_MS));
        await purgeFailures(app.storage, new Date(clock.now().getTime() - TEAM_LIMITS.failureWindowMs));
        return { outcome: 'again', at: new Date(clock.now().getTime() + 3_600_000) };
      },
    });
  },
  { name: 'services', dependencies: ['storage'] },
);
