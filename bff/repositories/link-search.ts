import { sql, type SqlBool } from 'kysely';
import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';
import type { OrderPosition } from './order-search.ts';
import { db, run, startsWith } from './sql.ts';

/** The merchant's payment links, newest first by keyset; one link by its id or its reference. */
export type LinkFilter = {
  merchantId: number;
  mode: Mode;
  type?: 'SC' | 'MC' | 'SUB' | undefined;
  active?: boolean | undefined;
  /** A name (any case) or reference prefix. */
  search?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

export type LinkListRow = {
  id: number;
  reference: string;
  name: string;
  description: string;
  payment_type: 'SC' | 'MC' | 'SUB';
  is_active: boolean;
  currency: string;
  amount_minor: number | null;
  payer_limit: number;
  uses: number;
  frequency_id: number | null;
  number_of_payments: number | null;
  created_at: Date;
};

const COLUMNS = [
  'l.id', 'l.reference', 'l.name', 'l.description', 'l.payment_type', 'l.is_active', 'l.currency', 'l.amount_minor', 'l.payer_limit', 'l.uses',
  'l.frequency_id', 'l.number_of_payments', 'l.created_at',
] as const;

const ofMerchant = (merchantId: number, mode: Mode) =>
  db.selectFrom('payment_links as l').select(COLUMNS).where('l.merchant_id', '=', merchantId).where('l.mode', '=', mode);

export async function listLinks(on: Queryable, filter: LinkFilter, limit: number, after?: OrderPosition): Promise<LinkListRow[]> {
  let query = ofMerchant(filter.merchantId, filter.mode);
  if (filter.type) query = query.where('l.payment_type', '=', filter.type);
  if (filter.active !== undefined) query = query.where('l.is_active', '=', filter.active);
  if (filter.from) query = query.where('l.created_at', '>=', filter.from);
  if (filter.to) query = query.where('l.created_at', '<', filter.to);
  if (filter.search) {
    const search = filter.search;
    query = query.where(
      sql<SqlBool>`(lower(l.name) LIKE ${startsWith(search.toLowerCase())} OR l.reference LIKE ${startsWith(search)})`,
    );
  }
  if (after) query = query.where(sql<SqlBool>`(l.created_at, l.id) < (${after.createdAt}, ${after.id})`);
  return run(on, query.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(limit)) as Promise<LinkListRow[]>;
}

/** The merchant's link whose id (all digits) or reference this is. */
export async function findLink(on: Queryable, merchantId: number, mode: Mode, idOrReference: string): Promise<LinkListRow | undefined> {
  const byId = /^\d{1,9}$/.test(idOrReference);
  const query = ofMerchant(merchantId, mode).where(byId ? sql<SqlBool>`(l.id = ${Number(idOrReference)} OR l.reference = ${idOrReference})` : sql<SqlBool>`l.reference = ${idOrReference}`);
  const [row] = (await run(on, query.orderBy(sql`l.reference = ${idOrReference}`, 'desc').limit(1))) as LinkListRow[];
  return row;
}
