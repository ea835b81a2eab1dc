import type { FeePlain, FeeQuote } from '../../shared/fees.ts';
import { maximumAmountMinor, toMajorUnits, toMinorUnits } from '../../shared/money.ts';
import { computeFee, DEFAULT_FEE_RULES, feeRulesSchema, type FeeBreakdown, type FeeRule } from '../domain/fees.ts';
import type { Caller, Merchant } from '../domain/merchant.ts';
import { invalid } from '../errors.ts';
import type { OrderService } from './orders.ts';

/** The merchant's own rules, or the sandbox defaults when none are set. */
export function merchantFeeRules(merchant: Merchant): FeeRule[] {
  const parsed = feeRulesSchema.safeParse(merchant.feeRules);
  return parsed.success && parsed.data.length > 0 ? parsed.data : DEFAULT_FEE_RULES;
}

/** An amount from a client in minor units: more decimals than the currency has, or more than its maximum, is VAL400. */
export function amountInMinorUnits(amount: number, currency: string, field: string): number {
  const minor = toMinorUnits(amount, currency);
  if (minor === undefined || minor <= 0) throw invalid(`The ${field} field has more decimal places than ${currency} allows.`);
  const maximum = maximumAmountMinor(currency);
  if (minor > maximum) throw invalid(`The ${field} field must be at most ${toMajorUnits(maximum, currency)} ${currency}.`);
  return minor;
}

export function presentQuote(breakdown: FeeBreakdown, amountMinor: number, currency: string, option: string): FeeQuote {
  const major = (minor: number) => toMajorUnits(minor, currency);
  return {
    // What the gateway's clients add to the amount (decisions.md "The fee a client reads"): the customer's part.
    fee: major(breakdown.customerFeeMinor),
    amount: major(amountMinor),
    subsidiaryFee: major(breakdown.subsidiaryFeeMinor),
    customerFee: major(breakdown.customerFeeMinor),
    totalChargedAmount: major(breakdown.totalMinor),
    paymentOption: option,
    currency,
    bearer: breakdown.bearer,
  };
}

export class FeeService {
  constructor(private readonly orders: OrderService) {}

  /**
   * With an order reference the quote uses the fee rules the order was created under, which are the rules its
   * payment will be charged with: the fee shown before paying is the fee charged.
   */
  async quote(caller: Caller, request: FeePlain): Promise<FeeQuote> {
    if (request.reference) {
      const order = await this.orders.resolve(caller, request.reference);
      if (amountInMinorUnits(request.amount, order.currency, 'amount') !== order.amountMinor) {
        throw invalid('The amount field must equal the order amount when a reference is given.');
      }
      const breakdown = computeFee(order.feeRules, request.paymentoption, order.currency, order.amountMinor);
      return presentQuote(breakdown, order.amountMinor, order.currency, request.paymentoption);
    }
    const rules = merchantFeeRules(caller.merchant);
    const currency = request.currency;
    const amountMinor = amountInMinorUnits(request.amount, currency, 'amount');
    return presentQuote(computeFee(rules, request.paymentoption, currency, amountMinor), amountMinor, currency, request.paymentoption);
  }
}
