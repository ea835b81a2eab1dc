import { expect } from 'chai';
import { meaningOf } from '../../../widget/flow/status.ts';
import { paidStatus, REFERENCE, statusAnswer, transferStatus } from '../support/fixtures.ts';

describe('order status meaning', () => {
  it('reads status 5 as paid, with the order reference (the one the merchant sees) and confirmation time', () => {
    expect(meaningOf(paidStatus().data)).to.deep.equal({
      kind: 'paid',
      amount: 12787.5,
      currency: 'NGN',
      reference: REFERENCE,
      confirmedAt: '2026-11-22T10:17:02.000',
      excess: 0,
    });
  });

  it('tells an expired transfer account (code 04) from a decline', () => {
    const expired = transferStatus({ payment_status: 4, payment_response_code: '04', payment_response_message: 'Account number has expired' });
    expect(meaningOf(expired.data)).to.deep.equal({ kind: 'expired', message: 'Account number has expired', received: 0 });
    const partlyPaid = transferStatus({ payment_status: 4, payment_response_code: '04', amount_received: 5000 });
    expect(meaningOf(partlyPaid.data)).to.include({ kind: 'expired', received: 5000 });
    expect(meaningOf(statusAnswer({ payment_status: 4, payment_response_code: '05' }).data)).to.deep.equal({ kind: 'declined', code: '05' });
    expect(meaningOf(statusAnswer({ payment_status: 6, payment_response_code: '00' }).data)).to.deep.equal({ kind: 'reversed', code: '00' });
  });

  it('reads a pending payment with an account expiry as a transfer awaiting money, and otherwise as 3-D Secure', () => {
    expect(meaningOf(transferStatus({ amount_due: 2500 }).data)).to.deep.equal({ kind: 'awaiting-transfer', amountDue: 2500 });
    expect(meaningOf(statusAnswer().data)).to.deep.equal({ kind: 'awaiting-authentication' });
    expect(meaningOf(statusAnswer({ payment_status: 1 }).data)).to.deep.equal({ kind: 'unpaid' });
  });
});
