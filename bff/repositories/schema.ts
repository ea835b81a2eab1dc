import type { ColumnType, Generated } from 'kysely';
import type { OrderState } from '../../shared/contract/orders.ts';

/**
 * The tables as the typed query builder (`sql.ts`) sees them: column names and the types the drivers return. The
 * migrations (`../storage/migrations/`) define them; this file describes them and must follow each migration.
 */
type Timestamp = ColumnType<Date, Date, Date>;
type Mode = 'test' | 'live';

export interface CustomersTable {
  id: Generated<number>;
  merchant_id: number;
  mode: Mode;
  email: string | null;
  first_name: string;
  last_name: string;
  mobile: string | null;
  country: string | null;
  created_at: Timestamp;
}

export interface OrdersTable {
  id: Generated<number>;
  merchant_id: number;
  mode: Mode;
  reference: string;
  processor_reference: string;
  customer_id: number;
  amount_minor: number;
  currency: string;
  description: string | null;
  items: unknown;
  redirect_url: string | null;
  payment_link_id: number | null;
  frequency_id: number | null;
  number_of_payments: number | null;
  auth_option: 'AUTH' | 'NOAUTH';
  fee_rules: unknown;
  payment_meta: unknown;
  status_id: 1 | 2 | 4 | 5 | 6;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: 'server' | 'browser';
  shopper_id: number | null;
  subscription_id: number | null;
  recurring_period: number | null;
}

export interface OrderPaymentsTable {
  id: Generated<number>;
  order_id: number;
  reference: string;
  payment_option: 'C' | 'bank-transfer';
  status_id: 1 | 2 | 4 | 5 | 6;
  stage: 'processing' | 'authentication' | 'transfer' | 'done';
  response_code: string;
  response_message: string;
  raw_response_code: string | null;
  reason: string | null;
  processor: string;
  remarks: string;
  amount_minor: number;
  fee_minor: number;
  customer_fee_minor: number;
  subsidiary_fee_minor: number;
  total_minor: number;
  card_brand: string | null;
  card_last4: string | null;
  transfer_account: string | null;
  transfer_bank: string | null;
  transfer_expires_at: Timestamp | null;
  received_minor: number;
  excess_minor: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  confirmed_at: Timestamp | null;
}

export interface PaymentLinksTable {
  id: Generated<number>;
  merchant_id: number;
  mode: Mode;
  reference: string;
  code: string;
  name: string;
  description: string;
  payment_type: 'SC' | 'MC' | 'SUB';
  currency: string;
  amount_minor: number | null;
  payer_limit: number;
  uses: number;
  is_active: boolean;
  frequency_id: number | null;
  number_of_payments: number | null;
  created_at: Timestamp;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  reference: string;
  merchant_id: number;
  mode: Mode;
  payment_link_id: number | null;
  first_order_id: number;
  customer_id: number;
  amount_minor: number;
  currency: string;
  frequency_id: number;
  payments_total: number | null;
  payments_made: number;
  next_due_at: Timestamp | null;
  state: 'active' | 'past_due' | 'cancelled' | 'completed';
  created_at: Timestamp;
  updated_at: Timestamp;
  ended_at: Timestamp | null;
}

export interface RefundsTable {
  id: Generated<number>;
  reference: string;
  order_id: number;
  payment_id: number;
  amount_minor: number;
  currency: string;
  reason: string | null;
  state: 'processing' | 'succeeded' | 'failed';
  response_code: string | null;
  response_message: string | null;
  processor_reference: string | null;
  processor: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface OrderEventsTable {
  id: Generated<number>;
  order_id: number;
  name: string;
  source: 'client' | 'system';
  detail: unknown;
  created_at: Timestamp;
}

/** Kept by triggers (migration 015), never written by the application. */
export interface OrderSummariesTable {
  order_id: number;
  merchant_id: number;
  mode: Mode;
  created_at: Timestamp;
  currency: string;
  amount_minor: number;
  state: OrderState;
  method: 'C' | 'bank-transfer' | null;
  payment_id: number | null;
}

export interface ShoppersTable {
  id: Generated<number>;
  merchant_id: number;
  mode: Mode;
  reference: string;
  created_at: Timestamp;
}

export interface SavedCardsTable {
  id: Generated<number>;
  shopper_id: number;
  token: string;
  brand: string;
  first6: string;
  last4: string;
  expiry: string;
  created_at: Timestamp;
}

export interface OrderNotesTable {
  id: Generated<number>;
  order_id: number;
  text: string;
  author: string | null;
  created_at: Timestamp;
}

export interface DomainEventsTable {
  id: string;
  merchant_id: number;
  mode: Mode;
  type: string;
  order_id: number | null;
  data: unknown;
  created_at: Timestamp;
}

export interface WebhookEndpointsTable {
  id: string;
  merchant_id: number;
  mode: Mode;
  url: string;
  created_at: Timestamp;
  disabled_at: Timestamp | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Timestamp | null;
  deliver_until: Timestamp;
  resend_of: string | null;
  last_error: string | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  status_code: number | null;
  error: string | null;
  latency_ms: number | null;
}

export interface Database {
  order_summaries: OrderSummariesTable;
  customers: CustomersTable;
  orders: OrdersTable;
  order_payments: OrderPaymentsTable;
  payment_links: PaymentLinksTable;
  subscriptions: SubscriptionsTable;
  refunds: RefundsTable;
  order_events: OrderEventsTable;
  shoppers: ShoppersTable;
  saved_cards: SavedCardsTable;
  domain_events: DomainEventsTable;
  order_notes: OrderNotesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
