import { z } from 'zod';
import { aliased } from './binding.ts';
import { encryptedBodySchema } from './encrypted.ts';
import { successEnvelope } from './envelope.ts';
import { positiveAmount } from './fields.ts';
import { statusIdSchema } from './orders.ts';

/** Test mode only: simulate the customer's bank transfer arriving on a temporary account. */
export const simulateTransferRequestSchema = z
  .object({
    accountNumber: aliased(z.string().trim().regex(/^\d{10}$/, { message: 'must be a 10-digit account number' }), 'accountnumber', 'account'),
    amount: positiveAmount,
  })
  .meta({ id: 'SimulateTransferRequest', example: { accountNumber: '0123456789', amount: 12500 } });

export const simulateTransferResponseSchema = successEnvelope(
  z.object({
    accountNumber: z.string(),
    paymentReference: z.string(),
    orderReference: z.string(),
    amountExpected: z.number(),
    amountReceived: z.number(),
    amountDue: z.number(),
    excessAmount: z.number(),
    paymentStatusId: statusIdSchema,
    message: z.string(),
  }),
).meta({ id: 'SimulateTransferResponse' });

/**
 * Test mode only: any plain JSON object (an order endpoint's plain payload), which the answer gives back encrypted
 * for this merchant's key, ready to send as the body of that endpoint. What makes `/docs` "Try it out" usable on
 * encrypted endpoints; real clients encrypt themselves.
 */
export const sandboxEncryptRequestSchema = z
  .record(z.string(), z.unknown())
  .meta({
    id: 'SandboxEncryptRequest',
    description: 'The plain JSON an encrypted endpoint takes (CreateOrderPlain, PayOrderPlain, FeeQueryPlain, OrderReference, TrackEventPlain).',
    example: { reference: 'ORDER-1042' },
  });

export const sandboxEncryptResponseSchema = successEnvelope(encryptedBodySchema).meta({ id: 'SandboxEncryptResponse' });
