import type { OrderDetail, TimelineEntry } from '../../shared/contract/order-detail.ts';
import { toMinorUnits } from '../../shared/money.ts';
import { feeRulesSchema, findRule } from '../domain/fees.ts';
import type { AttemptRow, NoteRow, RefundRow } from '../repositories/order-detail.ts';
import type { OrderRecord } from '../services/order-details.ts';
import { decimal, feeBearer, presentOrderSummary } from './operations.ts';

/**
 * An order's detail and its timeline, from the rows `OrderDetails` read. The timeline's lifecycle steps are the
 * order's own timeline rows (`order_events`, written by the payments core in the transaction of each step), each
 * completed with what the attempt, refund or event rows say about it; webhook deliveries and notes join them by
 * time. Oldest first; entries of one moment keep the order they were written in.
 */
const method = (option: 'C' | 'bank-transfer') => (option === 'C' ? ('card' as const) : ('bank_transfer' as const));
const iso = (date: Date | null) => (date === null ? null : date.toISOString());
const objectOf = (value: unknown): Record<string, unknown> | null => {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
};
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function presentOrderDetail(record: OrderRecord): OrderDetail {
  const currency = record.summary.currency;
  const items = (() => {
    const parsed = typeof record.extras.items === 'string' ? (JSON.parse(record.extras.items) as unknown) : record.extras.items;
    return (Array.isArray(parsed) ? parsed : []).map((item) => {
      const fields = objectOf(item) ?? {};
      const amountMinor = typeof fields.amountMinor === 'number' ? fields.amountMinor : 0;
      return { name: text(fields.name) ?? '', amountMinor, amount: decimal(amountMinor, currency) };
    });
  })();
  return {
    ...presentOrderSummary(record.summary),
    items,
    attempts: record.attempts.map((attempt) => ({
      reference: attempt.reference,
      method: method(attempt.payment_option),
      statusId: attempt.status_id,
      stage: attempt.stage,
      responseCode: attempt.response_code,
      rawResponseCode: attempt.raw_response_code,
      reason: attempt.reason,
      message: attempt.response_message,
      processor: attempt.processor,
      amountMinor: attempt.amount_minor,
      feeMinor: attempt.fee_minor,
      customerFeeMinor: attempt.customer_fee_minor,
      merchantFeeMinor: attempt.subsidiary_fee_minor,
      totalMinor: attempt.total_minor,
      feeBearer: feeBearer(attempt.customer_fee_minor, attempt.subsidiary_fee_minor),
      cardBrand: attempt.card_brand,
      cardLast4: attempt.card_last4,
      transferAccount: attempt.transfer_account,
      transferBank: attempt.transfer_bank,
      transferExpiresAt: iso(attempt.transfer_expires_at),
      receivedMinor: attempt.received_minor,
      excessMinor: attempt.excess_minor,
      createdAt: attempt.created_at.toISOString(),
      confirmedAt: iso(attempt.confirmed_at),
    })),
    refunds: record.refunds.map((refund) => ({
      reference: refund.reference,
      paymentReference: refund.payment_reference,
      state: refund.state,
      amountMinor: refund.amount_minor,
      amount: decimal(refund.amount_minor, currency),
      currency,
      reason: refund.reason,
      responseCode: refund.response_code,
      responseMessage: refund.response_message,
      createdAt: refund.created_at.toISOString(),
      completedAt: iso(refund.completed_at),
    })),
  };
}

export function presentNote(note: NoteRow): Extract<TimelineEntry, { type: 'note' }> {
  return { at: note.created_at.toISOString(), actor: note.author === null ? 'merchant_server' : 'team_member', type: 'note', text: note.text, author: note.author };
}

export function presentTimeline(record: OrderRecord): TimelineEntry[] {
  const { summary, extras } = record;
  const currency = summary.currency;
  const attempts = new Map(record.attempts.map((attempt) => [attempt.reference, attempt]));
  const refunds = new Map(record.refunds.map((refund) => [refund.reference, refund]));
  // What a partial transfer had brought so far is in the merchant's event of the same step (`transfer.partially_paid`,
  // the order as verify showed it then): the attempt's `amountReceived`, in major units.
  const partials = record.domainEvents
    .filter((event) => event.type === 'transfer.partially_paid')
    .map((event) => {
      const payments = objectOf(event.data)?.orderPayments;
      return Array.isArray(payments) ? payments.map(objectOf) : [];
    });
  const receivedSoFar = (reference: string): number | null => {
    const index = partials.findIndex((payments) => payments.some((payment) => payment?.orderPaymentReference === reference));
    if (index < 0) return null;
    const [payments] = partials.splice(index, 1);
    const received = payments!.find((payment) => payment?.orderPaymentReference === reference)?.amountReceived;
    return typeof received === 'number' || typeof received === 'string' ? (toMinorUnits(Number(received), currency) ?? null) : null;
  };
  const rules = feeRulesSchema.safeParse(typeof extras.fee_rules === 'string' ? JSON.parse(extras.fee_rules) : extras.fee_rules);
  const entries: TimelineEntry[] = [];

  for (const event of record.events) {
    const at = event.created_at.toISOString();
    const data = objectOf(event.detail) ?? {};
    if (event.source === 'client') {
      entries.push({ at, actor: 'customer', type: 'customer_event', name: event.name, detail: objectOf(event.detail) });
      continue;
    }
    const attempt = attempts.get(text(data.paymentReference) ?? '');
    const paymentReference = attempt?.reference ?? text(data.paymentReference) ?? '';
    const refund = refunds.get(text(data.refundReference) ?? '');
    const refundReference = refund?.reference ?? text(data.refundReference) ?? '';
    switch (event.name) {
      case 'order-created': {
        const renewal = data.recurringPaymentReference !== undefined;
        const origin = renewal ? 'subscription' : extras.created_by === 'server' ? 'server' : extras.link_reference !== null ? 'payment_link' : 'widget';
        const actor = renewal ? 'system' : origin === 'server' ? 'merchant_server' : origin === 'payment_link' ? 'link_page' : 'widget';
        entries.push({
          at, actor, type: 'order_created', origin, linkReference: extras.link_reference, subscriptionReference: summary.subscription_reference,
          amountMinor: summary.amount_minor, amount: decimal(summary.amount_minor, currency), currency,
        });
        break;
      }
      case 'payment-started':
        if (!attempt) break;
        entries.push({ at, actor: data.initiator === 'merchant' ? 'system' : 'customer', type: 'attempt_started', paymentReference, method: method(attempt.payment_option) });
        entries.push(feeQuoted(at, attempt, rules.success ? rules.data : [], currency));
        break;
      case 'authentication-required':
        entries.push({ at, actor: 'processor', type: 'three_d_secure_opened', paymentReference });
        break;
      case 'authentication-finished':
        entries.push({ at, actor: 'customer', type: 'three_d_secure_answered', paymentReference });
        break;
      case 'transfer-account-issued':
        entries.push({
          at, actor: 'processor', type: 'transfer_account_issued', paymentReference,
          account: attempt?.transfer_account ?? null, bank: attempt?.transfer_bank ?? null, expiresAt: iso(attempt?.transfer_expires_at ?? null),
        });
        break;
      case 'transfer-part-received': {
        const received = receivedSoFar(paymentReference);
        entries.push({
          at, actor: 'customer', type: 'money_received', paymentReference, expectedMinor: attempt?.total_minor ?? 0,
          receivedMinor: received, acceptedMinor: received, excessMinor: 0, complete: false,
        });
        break;
      }
      case 'payment-approved':
        if (attempt?.payment_option === 'bank-transfer') {
          entries.push({
            at, actor: 'customer', type: 'money_received', paymentReference, expectedMinor: attempt.total_minor, receivedMinor: attempt.received_minor,
            acceptedMinor: attempt.received_minor - attempt.excess_minor, excessMinor: attempt.excess_minor, complete: true,
          });
        }
        entries.push({
          at, actor: 'processor', type: 'payment_approved', paymentReference,
          responseCode: attempt?.response_code ?? '00', rawResponseCode: attempt?.raw_response_code ?? null, message: attempt?.response_message ?? 'Approved',
        });
        break;
      case 'payment-declined':
        entries.push({
          at, actor: 'processor', type: 'payment_declined', paymentReference,
          responseCode: attempt?.response_code ?? text(data.code) ?? '', rawResponseCode: attempt?.raw_response_code ?? null,
          reason: attempt?.reason ?? text(data.reason), message: attempt?.response_message ?? '',
        });
        break;
      case 'attempt-expired':
        entries.push({ at, actor: 'system', type: 'attempt_expired', paymentReference, reason: text(data.reason) ?? attempt?.reason ?? null });
        break;
      case 'attempt-superseded':
        entries.push({ at, actor: 'system', type: 'attempt_superseded', paymentReference });
        break;
      case 'payment-reversed':
        entries.push({ at, actor: 'processor', type: 'payment_reversed', paymentReference });
        break;
      case 'processor-answer-unknown':
        entries.push({ at, actor: 'system', type: 'processor_answer_unknown', paymentReference });
        break;
      case 'refund-started':
        entries.push(refundRequested(at, refund, refundReference, text(data.paymentReference) ?? '', currency));
        break;
      case 'refund-succeeded':
      case 'refund-failed':
        entries.push({
          at, actor: 'processor', type: event.name === 'refund-succeeded' ? 'refund_succeeded' : 'refund_failed', refundReference,
          responseCode: refund?.response_code ?? text(data.code), message: refund?.response_message ?? null,
        });
        break;
      case 'refund-answer-unknown':
        entries.push({ at, actor: 'system', type: 'refund_answer_unknown', refundReference });
        break;
      case 'subscription-created':
        entries.push({ at, actor: 'system', type: 'subscription_started', subscriptionReference: text(data.recurringPaymentReference) });
        break;
      default:
        // A step this view does not know yet stays out of it rather than showing a type outside the closed set.
        break;
    }
  }

  const attemptsOf = new Map<string, typeof record.webhookAttempts>();
  for (const attempt of record.webhookAttempts) attemptsOf.set(attempt.delivery_id, [...(attemptsOf.get(attempt.delivery_id) ?? []), attempt]);
  for (const delivery of record.deliveries) {
    entries.push({
      at: delivery.created_at.toISOString(), actor: 'system', type: 'webhook_delivery', deliveryId: delivery.id, eventId: delivery.event_id,
      eventType: delivery.event_type, endpointUrl: delivery.url, status: delivery.status, resendOf: delivery.resend_of,
      attempts: (attemptsOf.get(delivery.id) ?? []).map((attempt) => ({
        attempt: attempt.attempt, startedAt: attempt.started_at.toISOString(), finishedAt: iso(attempt.finished_at),
        statusCode: attempt.status_code, error: attempt.error, latencyMs: attempt.latency_ms,
      })),
    });
  }
  for (const note of record.notes) entries.push(presentNote(note));
  // Array.prototype.sort is stable: entries of one moment keep the order above (the core's steps, then deliveries).
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

function feeQuoted(at: string, attempt: AttemptRow, rules: Parameters<typeof findRule>[0], currency: string): TimelineEntry {
  const rule = findRule(rules, attempt.payment_option, currency) ?? null;
  return {
    at, actor: 'system', type: 'fee_quoted', paymentReference: attempt.reference, method: method(attempt.payment_option), rule,
    bearer: feeBearer(attempt.customer_fee_minor, attempt.subsidiary_fee_minor), feeMinor: attempt.fee_minor,
    customerFeeMinor: attempt.customer_fee_minor, merchantFeeMinor: attempt.subsidiary_fee_minor, totalMinor: attempt.total_minor,
  };
}

function refundRequested(at: string, refund: RefundRow | undefined, refundReference: string, paymentReference: string, currency: string): TimelineEntry {
  const amountMinor = refund?.amount_minor ?? 0;
  return {
    at, actor: 'merchant_server', type: 'refund_requested', refundReference, paymentReference: refund?.payment_reference ?? paymentReference,
    amountMinor, amount: decimal(amountMinor, currency), currency, reason: refund?.reason ?? null,
  };
}
