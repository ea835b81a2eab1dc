import type { Queryable } from '../storage/storage.ts';

/** The sandbox acquirer's book (its charges, its challenges, its card tokens); see bff/processor/sandbox/. */
export type SandboxCharge = {
  reference: string;
  state: 'challenge' | 'approved' | 'declined';
  code: string;
  cardToken: string | null;
  wrongCodes: number;
  passed: boolean | null;
  amountMinor: number;
  currency: string;
  merchantName: string;
  instrument: string;
  /** What the card's token will allow of merchant-initiated charges (null: no bound); see the sandbox's test cards. */
  recurringApprovals: number | null;
  createdAt: Date;
};

type Row = {
  reference: string; state: SandboxCharge['state']; code: string; card_token: string | null; wrong_codes: number; passed: boolean | null;
  amount_minor: number; currency: string; merchant_name: string; instrument: string; recurring_approvals: number | null; created_at: Date;
};

const toCharge = (row: Row): SandboxCharge => ({
  reference: row.reference, state: row.state, code: row.code, cardToken: row.card_token, wrongCodes: row.wrong_codes, passed: row.passed,
  amountMinor: row.amount_minor, currency: row.currency, merchantName: row.merchant_name, instrument: row.instrument,
  recurringApprovals: row.recurring_approvals, createdAt: row.created_at,
});

/**
 * Records a charge the sandbox decided or challenged; a charge is decided once (a replayed call keeps the first).
 * `newCard`: the approval tokenised a new card (its token is the charge's), saved in the same statement.
 */
export async function recordCharge(
  db: Queryable,
  charge: Omit<SandboxCharge, 'wrongCodes' | 'passed' | 'createdAt'>,
  now: Date,
  newCard?: { recurringApprovals: number | null },
): Promise<SandboxCharge> {
  const [row] = await db.query<Row>(
    `WITH card AS (
       INSERT INTO sandbox_cards (token, code, created_at, recurring_approvals) SELECT $4::text, $3, $9, $12::int WHERE $11::boolean AND $4::text IS NOT NULL)
     INSERT INTO sandbox_charges (reference, state, code, card_token, amount_minor, currency, merchant_name, instrument, created_at, updated_at, recurring_approvals)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10)
     ON CONFLICT (reference) DO UPDATE SET updated_at = sandbox_charges.updated_at
     RETURNING *`,
    [charge.reference, charge.state, charge.code, charge.cardToken, charge.amountMinor, charge.currency, charge.merchantName, charge.instrument, now,
      charge.recurringApprovals, newCard !== undefined, newCard?.recurringApprovals ?? null],
  );
  return toCharge(row!);
}

export async function findCharge(db: Queryable, reference: string): Promise<SandboxCharge | undefined> {
  const [row] = await db.query<Row>('SELECT * FROM sandbox_charges WHERE reference = $1', [reference]);
  return row && toCharge(row);
}

/**
 * Counts a wrong one-time code in one guarded statement, so concurrent wrong codes are all counted; the code that
 * uses up the last try is the customer's failed answer. Undefined when the challenge has an answer or no tries left.
 */
export async function countWrongCode(db: Queryable, reference: string, maxAttempts: number, now: Date): Promise<SandboxCharge | undefined> {
  const [row] = await db.query<Row>(
    `UPDATE sandbox_charges
        SET wrong_codes = wrong_codes + 1, passed = CASE WHEN wrong_codes + 1 >= $2 THEN false ELSE passed END, updated_at = $3
      WHERE reference = $1 AND state = 'challenge' AND passed IS NULL AND wrong_codes < $2
      RETURNING *`,
    [reference, maxAttempts, now],
  );
  return row && toCharge(row);
}

/** Takes the customer's answer to a challenge: exactly one request can, and only while tries are left. */
export async function answerChallenge(db: Queryable, reference: string, passed: boolean, maxAttempts: number, now: Date): Promise<SandboxCharge | undefined> {
  const [row] = await db.query<Row>(
    `UPDATE sandbox_charges SET passed = $2, updated_at = $4
      WHERE reference = $1 AND state = 'challenge' AND passed IS NULL AND wrong_codes < $3
      RETURNING *`,
    [reference, passed, maxAttempts, now],
  );
  return row && toCharge(row);
}

/** Decides an answered challenge: approved or declined, once. */
export async function decideChallenge(db: Queryable, reference: string, state: 'approved' | 'declined', code: string, cardToken: string | null, now: Date): Promise<SandboxCharge | undefined> {
  const [row] = await db.query<Row>(
    `UPDATE sandbox_charges SET state = $2, code = $3, card_token = $4, updated_at = $5
      WHERE reference = $1 AND state = 'challenge' AND passed IS NOT NULL
      RETURNING *`,
    [reference, state, code, cardToken, now],
  );
  return row && toCharge(row);
}

export async function saveSandboxCard(db: Queryable, token: string, code: string, now: Date, recurringApprovals: number | null = null): Promise<void> {
  await db.query('INSERT INTO sandbox_cards (token, code, created_at, recurring_approvals) VALUES ($1, $2, $3, $4)', [token, code, now, recurringApprovals]);
}

export async function findSandboxCard(db: Queryable, token: string): Promise<{ code: string; recurringApprovals: number | null } | undefined> {
  const [row] = await db.query<{ code: string; recurring_approvals: number | null }>('SELECT code, recurring_approvals FROM sandbox_cards WHERE token = $1', [token]);
  return row && { code: row.code, recurringApprovals: row.recurring_approvals };
}

/** Uses up one of a card's bounded merchant-initiated approvals, atomically; false when none is left. */
export async function takeRecurringApproval(db: Queryable, token: string): Promise<boolean> {
  const rows = await db.query('UPDATE sandbox_cards SET recurring_approvals = recurring_approvals - 1 WHERE token = $1 AND recurring_approvals > 0 RETURNING token', [token]);
  return rows.length === 1;
}

/** A refund the sandbox decided. */
export type SandboxRefund = { reference: string; chargeReference: string; state: 'succeeded' | 'failed'; code: string; amountMinor: number; currency: string; createdAt: Date };

type RefundRow = { reference: string; charge_reference: string; state: SandboxRefund['state']; code: string; amount_minor: number | string; currency: string; created_at: Date };

const toRefund = (row: RefundRow): SandboxRefund => ({
  reference: row.reference, chargeReference: row.charge_reference, state: row.state, code: row.code, amountMinor: Number(row.amount_minor),
  currency: row.currency.trim(), createdAt: row.created_at,
});

/** Records a refund the sandbox decided; a refund is decided once (a replayed call keeps the first answer). */
export async function recordRefund(db: Queryable, refund: Omit<SandboxRefund, 'createdAt'>, now: Date): Promise<SandboxRefund> {
  const [row] = await db.query<RefundRow>(
    `INSERT INTO sandbox_refunds (reference, charge_reference, state, code, amount_minor, currency, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (reference) DO UPDATE SET created_at = sandbox_refunds.created_at
     RETURNING *`,
    [refund.reference, refund.chargeReference, refund.state, refund.code, refund.amountMinor, refund.currency, now],
  );
  return toRefund(row!);
}

export async function findRefund(db: Queryable, reference: string): Promise<SandboxRefund | undefined> {
  const [row] = await db.query<RefundRow>('SELECT * FROM sandbox_refunds WHERE reference = $1', [reference]);
  return row && toRefund(row);
}

/** What the sandbox has refunded of a charge so far. */
export async function refundedOfCharge(db: Queryable, chargeReference: string): Promise<number> {
  const [row] = await db.query<{ total: number | string | null }>(
    `SELECT sum(amount_minor) AS total FROM sandbox_refunds WHERE charge_reference = $1 AND state = 'succeeded'`,
    [chargeReference],
  );
  return Number(row?.total ?? 0);
}
