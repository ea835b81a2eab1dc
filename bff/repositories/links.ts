import type { Mode } from '../domain/merchant.ts';
import type { Queryable } from '../storage/storage.ts';

export type StoredLink = {
  id: number;
  merchantId: number;
  mode: Mode;
  reference: string;
  code: string;
  name: string;
  description: string;
  paymentType: 'SC' | 'MC' | 'SUB';
  currency: string;
  authOption: 'AUTH' | 'NOAUTH';
  amountMinor: number | null;
  mobile: string | null;
  backgroundImage: string | null;
  website: string | null;
  payerLimit: number;
  uses: number;
  isActive: boolean;
  createdAt: Date;
};

type LinkRow = {
  id: number; merchant_id: number; mode: Mode; reference: string; code: string; name: string; description: string;
  payment_type: StoredLink['paymentType']; currency: string; auth_option: StoredLink['authOption'];
  amount_minor: number | null; mobile: string | null; background_image: string | null; website: string | null;
  payer_limit: number; uses: number; is_active: boolean; created_at: Date;
};

const toLink = (row: LinkRow): StoredLink => ({
  id: row.id, merchantId: row.merchant_id, mode: row.mode, reference: row.reference, code: row.code, name: row.name,
  description: row.description, paymentType: row.payment_type, currency: row.currency, authOption: row.auth_option,
  amountMinor: row.amount_minor, mobile: row.mobile, backgroundImage: row.background_image, website: row.website,
  payerLimit: row.payer_limit, uses: row.uses, isActive: row.is_active, createdAt: row.created_at,
});

export type NewLink = Omit<StoredLink, 'id' | 'uses' | 'isActive' | 'createdAt'>;

export async function insertLink(db: Queryable, link: NewLink): Promise<StoredLink> {
  const [row] = await db.query<LinkRow>(
    `INSERT INTO payment_links (merchant_id, mode, reference, code, name, description, payment_type, currency,
       auth_option, amount_minor, mobile, background_image, website, payer_limit)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`,
    [link.merchantId, link.mode, link.reference, link.code, link.name, link.description, link.paymentType, link.currency,
      link.authOption, link.amountMinor, link.mobile, link.backgroundImage, link.website, link.payerLimit],
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
