import type { Mode } from './merchant.ts';

/** A payment link as stored: the gateway's fields, its plan, and how many payments it has taken. */
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
  /** A SUB link's plan (null on other links; a SUB link without a frequency bills monthly). */
  frequencyId: number | null;
  numberOfPayments: number | null;
  uses: number;
  isActive: boolean;
  createdAt: Date;
};

/**
 * How many successful payments a link may take: one for a single-charge (SC) link, its Limit when it has one,
 * no bound otherwise. Checked when an order is made on the link and again, under the link's lock, when a payment
 * starts: payments under way count against it, so no customer is charged beyond it.
 */
export function linkCapacity(link: { paymentType: 'SC' | 'MC' | 'SUB'; payerLimit: number }): number {
  if (link.paymentType === 'SC') return 1;
  return link.payerLimit > 0 ? link.payerLimit : Number.POSITIVE_INFINITY;
}

/**
 * Whether a link takes a new order now: not when it (or its merchant) is disabled, nor once its successful and
 * under-way payments reach its capacity. The one rule the API, the link page and the checkout all apply.
 */
export type LinkAvailability = 'open' | 'inactive' | 'used_up';
export function linkAvailability(
  link: { paymentType: 'SC' | 'MC' | 'SUB'; payerLimit: number; uses: number; isActive: boolean },
  merchant: { disabled: boolean },
): LinkAvailability {
  if (!link.isActive || merchant.disabled) return 'inactive';
  return link.uses >= linkCapacity(link) ? 'used_up' : 'open';
}

/** A SUB link made without a frequency (the gateway's create has none) bills monthly. */
export const DEFAULT_FREQUENCY_ID = 6;

/** The plan an order of this link subscribes to: SUB links only. */
export function linkPlan(link: { paymentType: 'SC' | 'MC' | 'SUB'; frequencyId: number | null; numberOfPayments: number | null }): { frequencyId: number; numberOfPayments: number | null } | null {
  if (link.paymentType !== 'SUB') return null;
  return { frequencyId: link.frequencyId ?? DEFAULT_FREQUENCY_ID, numberOfPayments: link.numberOfPayments };
}
