import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';

import type { StoredLink } from '../domain/links.ts';

export type { StoredLink };

type LinkRow = {
  id: number; merchant_id: number; mode: Mode; reference: string; code: string; name: string; description: string;
  payment_type: StoredLink['paymentType']; currency: string; auth_option: StoredLink['authOption'];
  amount_minor: number | null; mobile: string | null; background_image: string | null; website: string | null;
  payer_limit: number; frequency_id: number | null; number_of_payments: number | null; uses: number; is_active: boolean; created_at: Date;
};

const toLink = (row: LinkRow): StoredLink => ({
  id: row.id, merchantId: row.merchant_id, mode: row.mode, reference: row.reference, code: row.code, name: row.name,
  description: row.description, paymentType: row.payment_type, currency: row.currency, authOption: row.auth_option,
  amountMinor: row.amount_minor, mobile: row.mobile, backgroundImage: row.background_image, website: row.website,
  payerLimit: row.payer_limit, frequencyId: row.frequency_id, numberOfPayments: row.number_of_payments, uses: row.uses, isActive: row.is_active, createdAt: row.created_at,
});

export type NewLink = Omit<StoredLink, 'id' | 'uses' | 'isActive' | 'createdAt'>;

export async function insertLink(db: Queryable, link: NewLink): Promise<StoredLink> {
  const [row] = await db.query<LinkRow>(
    `INSERT INTO payment_links (merchant_id, mode, reference, code, name, description, payment_type, currency,
       auth_option, amount_minor, mobile, background_image, website, payer_limit, frequency_id, number_of_payments)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING *`,
    [link.merchantId, link.mode, link.reference, link.code, link.name, link.description, link.paymentType, link.currency,
      link.authOption, link.amountMinor, link.mobile, link.backgroundImage, link.website, link.payerLimit, link.frequencyId, link.numberOfPayments],
  );
  return toLink(row!);
}

export async function findLinkByReference(db: Queryable, reference: string): Promise<StoredLink | undefined> {
  const [row] = await db.query<LinkRow>('SELECT * FROM payment_links WHERE reference = $1', [reference]);
  return row && toLink(row);
}

export async function findLinkById(db: Queryable, merchantId: number, id: number): Promise<StoredLink | undefined> {
  const [row] = await db.query<LinkRow>('SELECT * FROM payment_links WHERE merchant_id = $1 AND id = $2', [merchantId, id]);
  return row && toLink(row);
}

export async function countLinkUse(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE payment_links SET uses = uses + 1 WHERE id = $1', [id]);
}

/**
 * Takes the link's row lock for the rest of the transaction and reads it, with its payments taken: those approved and
 * those under way (processing, awaiting 3-D Secure, an open transfer account) on orders other than `exceptOrderId`.
 */
export async function lockLinkTaken(db: Queryable, id: number, exceptOrderId: number): Promise<{ link: StoredLink; taken: number } | undefined> {
  const [row] = await db.query<LinkRow>('SELECT * FROM payment_links WHERE id = $1 FOR UPDATE', [id]);
  if (!row) return undefined;
  const [open] = await db.query<{ count: number | string }>(
    `SELECT count(*) AS count FROM order_payments p JOIN orders o ON o.id = p.order_id
     WHERE o.payment_link_id = $1 AND o.id <> $2 AND o.recurring_period IS NULL AND p.status_id = 2`,
    [id, exceptOrderId],
  );
  return { link: toLink(row), taken: row.uses + Number(open?.count ?? 0) };
}

/** A merchant's links in one mode, newest first, one page of them, with how many there are in all. */
export async function listLinks(db: Queryable, merchantId: number, mode: Mode, limit: number, offset: number): Promise<{ links: StoredLink[]; total: number }> {
  const rows = await db.query<LinkRow>(
    'SELECT * FROM payment_links WHERE merchant_id = $1 AND mode = $2 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4',
    [merchantId, mode, limit, offset],
  );
  const [count] = await db.query<{ total: number }>('SELECT count(*)::integer AS total FROM payment_links WHERE merchant_id = $1 AND mode = $2', [merchantId, mode]);
  return { links: rows.map(toLink), total: count?.total ?? 0 };
}

export type LinkChanges = Partial<Pick<StoredLink, 'name' | 'description' | 'paymentType' | 'authOption' | 'amountMinor' | 'mobile' | 'backgroundImage' | 'website' | 'payerLimit' | 'isActive' | 'frequencyId' | 'numberOfPayments'>>;

const COLUMNS: Record<keyof LinkChanges, string> = {
  name: 'name', description: 'description', paymentType: 'payment_type', authOption: 'auth_option', amountMinor: 'amount_minor',
  mobile: 'mobile', backgroundImage: 'background_image', website: 'website', payerLimit: 'payer_limit', isActive: 'is_active',
  frequencyId: 'frequency_id', numberOfPayments: 'number_of_payments',
};

/** Changes the given columns of one of the merchant's links in a mode; undefined when there is no such link. */
export async function updateLink(db: Queryable, merchantId: number, mode: Mode, id: number, changes: LinkChanges): Promise<StoredLink | undefined> {
  const entries = (Object.keys(changes) as (keyof LinkChanges)[]).filter((key) => changes[key] !== undefined);
  const assignments = entries.map((key, index) => `${COLUMNS[key]} = $${index + 4}`);
  const [row] = await db.query<LinkRow>(
    `UPDATE payment_links SET ${assignments.length > 0 ? assignments.join(', ') : 'id = id'}
     WHERE merchant_id = $1 AND mode = $2 AND id = $3 RETURNING *`,
    [merchantId, mode, id, ...entries.map((key) => changes[key])],
  );
  return row && toLink(row);
}
