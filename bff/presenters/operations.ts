import type { OrderSummary } from '../../shared/contract/orders.ts';
import { currencyExponent } from '../../shared/money.ts';
import { invalid } from '../errors.ts';
import type { CustomerKey, OrderListRow, OrderPosition } from '../repositories/order-search.ts';

/**
 * The operations API's shapes: camelCase, amounts in minor units beside a decimal string in major units,
 * ISO 8601 times with a `Z`; the opaque cursors of keyset pages; customer ids; the CSV of an export.
 */
export function decimal(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  return exponent === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** A cursor names the last row of a page; it is opaque to clients (base64url of JSON), and checked when read back. */
export function encodeCursor(position: OrderPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): OrderPosition | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    const createdAt = typeof at === 'string' ? new Date(at) : new Date(Number.NaN);
    if (!Number.isNaN(createdAt.getTime()) && Number.isSafeInteger(id) && (id as number) > 0) return { createdAt, id: id as number };
  } catch {
    // An undecodable cursor is answered below like any other that this API did not give.
  }
  throw invalid('cursor is not a cursor this API gave; start again from the first page.', undefined, 'invalid_cursor');
}

/** A customer's id: the merchant knows a customer by e-mail, or by mobile number when it gave none. */
export function customerId(email: string | null, mobile: string | null): string {
  const key = email !== null ? `e:${email.toLowerCase()}` : `m:${mobile ?? ''}`;
  return `cus_${Buffer.from(key).toString('base64url')}`;
}

export function customerKeyOf(id: string): CustomerKey {
  const text = /^cus_[A-Za-z0-9_-]{2,600}$/.test(id) ? Buffer.from(id.slice(4), 'base64url').toString('utf8') : '';
  if (text.startsWith('e:') && text.length > 2) return { email: text.slice(2) };
  if (text.startsWith('m:') && text.length > 2) return { mobile: text.slice(2) };
  throw invalid('customer must be a customer id (cus_...) this API gave.', undefined, 'invalid_field');
}

export function feeBearer(customerFeeMinor: number, merchantFeeMinor: number): 'customer' | 'merchant' | 'shared' {
  if (customerFeeMinor > 0 && merchantFeeMinor > 0) return 'shared';
  return customerFeeMinor > 0 ? 'customer' : 'merchant';
}

export function presentOrderSummary(row: OrderListRow): OrderSummary {
  return {
    reference: row.reference,
    origin: row.created_by === 'server' ? 'server' : row.link_reference !== null ? 'payment_link' : 'widget',
    state: row.state,
    statusId: row.status_id,
    amountMinor: row.amount_minor,
    amount: decimal(row.amount_minor, row.currency),
    currency: row.currency,
    description: row.description,
    customer: {
      id: customerId(row.customer_email, row.customer_mobile),
      email: row.customer_email,
      name: `${row.customer_first_name} ${row.customer_last_name}`.trim(),
      mobile: row.customer_mobile,
    },
    payment:
      row.payment_reference === null || row.payment_option === null
        ? null
        : {
            reference: row.payment_reference,
            method: row.payment_option === 'C' ? 'card' : 'bank_transfer',
            cardBrand: row.card_brand,
            cardLast4: row.card_last4,
            transferAccount: row.transfer_account,
            transferBank: row.transfer_bank,
            receivedMinor: row.received_minor ?? 0,
            feeMinor: row.fee_minor ?? 0,
            feeBearer: feeBearer(row.customer_fee_minor ?? 0, row.subsidiary_fee_minor ?? 0),
          },
    linkReference: row.link_reference,
    subscriptionReference: row.subscription_reference,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The export's columns, in this order, whatever else the API gains (the README lists them). */
export const ORDER_CSV_COLUMNS = [
  'created_at', 'reference', 'state', 'status_id', 'currency', 'amount', 'fee', 'fee_bearer', 'method', 'card_brand', 'card_last4',
  'transfer_account', 'received', 'payment_reference', 'customer_email', 'customer_name', 'customer_mobile', 'link_reference',
  'subscription_reference', 'origin', 'description',
] as const;

/** One CSV field (RFC 4180), neutralised against spreadsheet formulas (a leading `=`, `+`, `-`, `@`). */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function orderCsvLine(row: OrderListRow): string {
  const summary = presentOrderSummary(row);
  const payment = summary.payment;
  const values: Record<(typeof ORDER_CSV_COLUMNS)[number], string | number | null> = {
    created_at: summary.createdAt,
    reference: summary.reference,
    state: summary.state,
    status_id: summary.statusId,
    currency: summary.currency,
    amount: summary.amount,
    fee: payment ? decimal(payment.feeMinor, summary.currency) : null,
    fee_bearer: payment?.feeBearer ?? null,
    method: payment?.method ?? null,
    card_brand: payment?.cardBrand ?? null,
    card_last4: payment?.cardLast4 ?? null,
    transfer_account: payment?.transferAccount ?? null,
    received: payment && payment.method === 'bank_transfer' ? decimal(payment.receivedMinor, summary.currency) : null,
    payment_reference: payment?.reference ?? null,
    customer_email: summary.customer.email,
    customer_name: summary.customer.name,
    customer_mobile: summary.customer.mobile,
    link_reference: summary.linkReference,
    subscription_reference: summary.subscriptionReference,
    origin: summary.origin,
    description: summary.description,
  };
  return `${ORDER_CSV_COLUMNS.map((column) => csvField(values[column])).join(',')}\r\n`;
}
