import { endpoint } from './endpoint.ts';
import { simulateTransferRequestSchema, simulateTransferResponseSchema } from '../sandbox.ts';

/**
 * Sandbox controls, test mode only: they stand in for the outside world (the customer's bank). The secret key, or a
 * member whose role may manage the integration (`webhooks.write`: owner, admin, developer), from the dashboard's
 * Developers screen.
 */
export const simulateTransfer = endpoint({
  method: 'POST',
  path: '/checkout/sandbox/transfers',
  auth: 'secret',
  permission: 'webhooks.write',
  summary: "Simulate the customer's bank transfer (test mode only)",
  description: 'Money arrives on a temporary account: exact completes the payment, short leaves the rest due, excess completes it and records the excess.',
  tags: ['Sandbox'],
  body: simulateTransferRequestSchema,
  success: simulateTransferResponseSchema,
  errors: ['VAL400', 'NF404', 'CON409'],
});
