import { describe, expect, it } from 'vitest';
import {
  ORDER_STATES,
  ORDER_TABLE,
  PAYMENT_STATES,
  PAYMENT_TABLE,
  planOrder,
  planPayment,
  type OrderEventType,
  type PaymentEvent,
  type PaymentState,
} from '../../bff/domain/lifecycle.ts';

const NOW = new Date('2026-11-24T10:00:00Z');

/** One event of each type, with the changes it carries. */
const EVENTS: PaymentEvent[] = [
  { type: 'authentication-required', action: 'https://issuer.test/acs/1' },
  { type: 'authentication-answered' },
  { type: 'transfer-opened', account: '0123456789', bank: 'Sandbox Bank', expiresAt: NOW },
  { type: 'transfer-part-received', receivedMinor: 100, remarks: 'Partial transfer received' },
  { type: 'approved', rawCode: 'SBX-00' },
  { type: 'declined', code: '51', rawCode: 'SBX-51', reason: 'declined' },
  { type: 'expired', reason: 'account-expired', remarks: 'Account number has expired' },
  { type: 'superseded' },
  { type: 'reversed', remarks: 'Reversed' },
];

const name = (state: PaymentState) => `${state.status}/${state.stage}`;

/** The whole table, written out: every (state, event) pair that is allowed, and where it leads. */
const ALLOWED: Record<string, string> = {
  '2/processing authentication-required': '2/authentication',
  '2/authentication authentication-answered': '2/processing',
  '2/processing transfer-opened': '2/transfer',
  '2/transfer transfer-part-received': '2/transfer',
  '2/processing approved': '5/done',
  '2/transfer approved': '5/done',
  '2/processing declined': '4/done',
  '2/authentication expired': '4/done',
  '2/transfer expired': '4/done',
  '2/authentication superseded': '4/done',
  '2/transfer superseded': '4/done',
  '5/done reversed': '6/done',
};

describe('the payment lifecycle table', () => {
  for (const state of PAYMENT_STATES) {
    for (const event of EVENTS) {
      const key = `${name(state)} ${event.type}`;
      const target = ALLOWED[key];
      it(target ? `takes ${event.type} from ${name(state)} to ${target}` : `refuses ${event.type} from ${name(state)} with a typed conflict`, () => {
        const plan = planPayment(state, event, NOW);
        if (target) {
          expect(plan.ok).toBe(true);
          if (plan.ok) expect(name(plan.to)).toBe(target);
        } else {
          expect(plan).toEqual({ ok: false, conflict: { entity: 'payment', event: event.type, from: state } });
        }
      });
    }
  }

  it('has no self-loop of status and stage except money arriving on an open account', () => {
    const loops = Object.entries(PAYMENT_TABLE).filter(([, rule]) => rule.from.some((from) => name(from) === name(rule.to)));
    expect(loops.map(([type]) => type)).toEqual(['transfer-part-received']);
  });

  it('lets every final state end only by a reversal of a success', () => {
    for (const state of PAYMENT_STATES.filter((each) => each.stage === 'done')) {
      const allowed = EVENTS.filter((event) => planPayment(state, event, NOW).ok).map((event) => event.type);
      expect(allowed).toEqual(state.status === 5 ? ['reversed'] : []);
    }
  });

  it('carries each event’s own changes: the reason and codes of an end, the account of a transfer', () => {
    const expired = planPayment({ status: 2, stage: 'authentication' }, { type: 'expired', reason: 'authentication-expired', remarks: 'late' }, NOW);
    expect(expired.ok && expired.changes).toMatchObject({ reason: 'authentication-expired', responseCode: '05', responseMessage: 'Authentication expired' });
    const superseded = planPayment({ status: 2, stage: 'transfer' }, { type: 'superseded' }, NOW);
    expect(superseded.ok && superseded.changes).toMatchObject({ reason: 'superseded', responseCode: '12' });
    const declined = planPayment({ status: 2, stage: 'processing' }, { type: 'declined', code: '51', rawCode: 'ACQ-116', reason: 'declined' }, NOW);
    expect(declined.ok && declined.changes).toMatchObject({ responseCode: '51', rawResponseCode: 'ACQ-116', reason: 'declined' });
    const approved = planPayment({ status: 2, stage: 'processing' }, { type: 'approved', rawCode: 'ACQ-000' }, NOW);
    expect(approved.ok && approved.changes).toMatchObject({ responseCode: '00', rawResponseCode: 'ACQ-000', reason: null, confirmedAt: NOW });
  });
});

describe('the order lifecycle table', () => {
  const allowed: Record<string, number> = {
    '1 attempt-started': 2, '2 attempt-started': 2, '4 attempt-started': 2,
    '2 attempt-failed': 4, '2 paid': 5, '5 reversed': 6,
  };
  for (const status of ORDER_STATES) {
    for (const event of Object.keys(ORDER_TABLE) as OrderEventType[]) {
      const target = allowed[`${status} ${event}`];
      it(target ? `takes ${event} from ${status} to ${target}` : `refuses ${event} from ${status}`, () => {
        const plan = planOrder(status, event);
        expect(plan).toEqual(target ? { ok: true, from: status, to: target } : { ok: false, conflict: { entity: 'order', event, from: status } });
      });
    }
  }
});
