import { z } from 'zod';
import { aliased } from './binding.ts';
import { successEnvelope } from './envelope.ts';
import { positiveAmount } from './fields.ts';
import { statusIdSchema } from './orders.ts';

/** Test mode only: simulate the customer's bank transfer arriving on a temporary account. */
export const simulateTransferRequestSchema = z
  .object({
    accountNumber: aliased(z.string().trim().regex(/^\d{10}$/, { message: 'must be a 10-digit account number' }), 'accountnumber', 'account'),
    amount: positiveAmount,
  })
  .meta({ id: 'SimulateTransferRequest' });

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
