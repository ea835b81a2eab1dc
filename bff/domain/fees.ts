import { z } from 'zod';

/**
 * Fee rules per merchant, payment option and currency. A fee is a percentage plus a flat part (the flat part
 * waived under a threshold), capped, and borne by the customer, the merchant or split between them. All money
 * is integer minor units; rounding is half-up on the percentage part, so a quote is reproducible to the unit.
 */
export const feeRuleSchema = z.object({
  option: z.enum(['C', 'bank-transfer', '*']),
  currency: z.string().regex(/^([A-Z]{3}|\*)$/),
  percentBasisPoints: z.number().int().min(0).max(10_000),
  flatMinor: z.number().int().min(0).default(0),
  flatWaivedBelowMinor: z.number().int().min(0).default(0),
  capMinor: z.number().int().min(0).nullable().default(null),
  bearer: z.enum(['customer', 'merchant', 'split']),
  /** For `split`: the customer's share in basis points of the fee (default half). */
  customerShareBasisPoints: z.number().int().min(0).max(10_000).default(5_000),
});
export type FeeRule = z.infer<typeof feeRuleSchema>;
export const feeRulesSchema = z.array(feeRuleSchema);

/** The sandbox defaults: the gateway's published sample (USD 100 by card: fee 6, total 106) and NGN card pricing. */
export const DEFAULT_FEE_RULES: FeeRule[] = feeRulesSchema.parse([
  { option: 'C', currency: 'USD', percentBasisPoints: 600, bearer: 'customer' },
  { option: 'C', currency: 'NGN', percentBasisPoints: 150, flatMinor: 100_00, flatWaivedBelowMinor: 2_500_00, capMinor: 2_000_00, bearer: 'customer' },
  { option: 'bank-transfer', currency: 'NGN', percentBasisPoints: 50, capMinor: 200_00, bearer: 'merchant' },
  { option: 'C', currency: '*', percentBasisPoints: 390, bearer: 'customer' },
  { option: 'bank-transfer', currency: '*', percentBasisPoints: 100, bearer: 'merchant' },
]);

export type FeeBreakdown = {
  feeMinor: number;
  customerFeeMinor: number;
  subsidiaryFeeMinor: number;
  totalMinor: number;
  /** The percentage part, in percent (1.5 for 1.5 %). */
  rate: number;
  bearer: FeeRule['bearer'];
};

/** The most specific rule wins: exact option and currency, then a wildcard currency, then a wildcard option. */
export function findRule(rules: readonly FeeRule[], option: string, currency: string): FeeRule | undefined {
  const score = (rule: FeeRule) => (rule.option === option ? 2 : rule.option === '*' ? 0 : -10) + (rule.currency === currency ? 1 : rule.currency === '*' ? 0 : -10);
  return [...rules].filter((rule) => score(rule) >= 0).sort((a, b) => score(b) - score(a))[0];
}

export function computeFee(rules: readonly FeeRule[], option: string, currency: string, amountMinor: number): FeeBreakdown {
  const rule = findRule(rules, option, currency);
  if (!rule) return { feeMinor: 0, customerFeeMinor: 0, subsidiaryFeeMinor: 0, totalMinor: amountMinor, rate: 0, bearer: 'merchant' };
  const percentPart = Math.floor((amountMinor * rule.percentBasisPoints + 5_000) / 10_000);
  const flatPart = amountMinor < rule.flatWaivedBelowMinor ? 0 : rule.flatMinor;
  const uncapped = percentPart + flatPart;
  const feeMinor = rule.capMinor === null ? uncapped : Math.min(uncapped, rule.capMinor);
  const customerFeeMinor =
    rule.bearer === 'customer' ? feeMinor : rule.bearer === 'merchant' ? 0 : Math.floor((feeMinor * rule.customerShareBasisPoints) / 10_000);
  return {
    feeMinor,
    customerFeeMinor,
    subsidiaryFeeMinor: feeMinor - customerFeeMinor,
    totalMinor: amountMinor + customerFeeMinor,
    rate: rule.percentBasisPoints / 100,
    bearer: rule.bearer,
  };
}
