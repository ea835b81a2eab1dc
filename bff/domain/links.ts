/**
 * How many successful payments a link may take: one for a single-charge (SC) link, its Limit when it has one,
 * no bound otherwise. Checked when an order is made on the link and again, under the link's lock, when a payment
 * starts: payments under way count against it, so no customer is charged beyond it.
 */
export function linkCapacity(link: { paymentType: 'SC' | 'MC' | 'SUB'; payerLimit: number }): number {
  if (link.paymentType === 'SC') return 1;
  return link.payerLimit > 0 ? link.payerLimit : Number.POSITIVE_INFINITY;
}
