import { formatTimestamp } from '../../shared/timestamps.ts';
import type { WebhookDeliveryView, WebhookEndpointView } from '../../shared/webhooks.ts';
import { deliveryBody, isDelivered, type WebhookAttempt, type WebhookDelivery, type WebhookEndpoint } from '../domain/webhooks.ts';

const stamp = (date: Date | null) => (date ? formatTimestamp(date) : null);

export function presentEndpoint(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    mode: endpoint.mode,
    status: endpoint.disabledAt ? 'disabled' : 'enabled',
    eventTypes: endpoint.eventTypes,
    createdAt: formatTimestamp(endpoint.createdAt),
    secretRotatedAt: stamp(endpoint.secretRotatedAt),
    previousSecretUntil: stamp(endpoint.previousSecretUntil),
    disabledAt: stamp(endpoint.disabledAt),
  };
}

/** An attempt without a recorded end is in progress while it is the delivery's latest and the delivery pending. */
function attemptOutcome(attempt: WebhookAttempt, delivery: WebhookDelivery): WebhookDeliveryView['attempts'][number]['outcome'] {
  if (attempt.finishedAt === null) {
    const latest = attempt.attempt === delivery.attempts.at(-1)?.attempt;
    return latest && delivery.status === 'pending' ? 'in-progress' : 'interrupted';
  }
  return isDelivered(attempt.statusCode) ? 'succeeded' : 'failed';
}

export function presentDelivery(delivery: WebhookDelivery): WebhookDeliveryView {
  return {
    id: delivery.id,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => {
      const outcome = attemptOutcome(attempt, delivery);
      return {
        attempt: attempt.attempt,
        startedAt: formatTimestamp(attempt.startedAt),
        outcome,
        statusCode: attempt.statusCode,
        error: outcome === 'interrupted' ? 'The delivering process stopped before the answer was recorded.' : attempt.error,
        latencyMs: attempt.latencyMs,
      };
    }),
    request: { body: deliveryBody({ id: delivery.eventId, type: delivery.eventType, createdAt: delivery.event.createdAt, data: delivery.event.data }) },
    nextAttemptAt: stamp(delivery.nextAttemptAt),
    deliverUntil: formatTimestamp(delivery.deliverUntil),
    resendOf: delivery.resendOf,
    lastError: delivery.lastError,
    createdAt: formatTimestamp(delivery.createdAt),
    completedAt: stamp(delivery.completedAt),
  };
}
