/**
 * Why a request was refused, as a closed set a client maps to words (the envelope's `message` is for people and
 * may change; `reason` does not). It travels as an additional member of the error envelope, which the gateway's
 * own clients ignore. Grouped by the code it travels with. Free of zod: the widget imports it at run time.
 */
export const CONFLICT_REASONS = [
  'order_already_paid',
  'order_reversed',
  'order_being_paid',
  'order_not_paid',
  'order_reference_taken',
  'order_needs_client_token',
  'link_capacity_reached',
  'link_inactive',
  'transfer_partly_received',
  'transfer_account_expired',
  'transfer_account_closed',
  'refund_exceeds_payment',
  'refund_exceeds_single_payment',
  'nothing_left_to_refund',
  'subscription_ended',
  'webhook_endpoint_disabled',
  'webhook_endpoint_limit',
  /** The row moved on between reading and writing it (a race): trying again reads it as it is now. */
  'state_changed',
  'member_exists',
  'last_owner',
  'totp_not_pending',
] as const;

export const VALIDATION_REASONS = ['invalid_field', 'invalid_cursor', 'invalid_date_range', 'invalid_body', 'destination_not_public'] as const;

export const NOT_FOUND_REASONS = [
  'route_not_found',
  'order_not_found',
  'link_not_found',
  'customer_not_found',
  'card_not_found',
  'subscription_not_found',
  'refund_not_found',
  'webhook_endpoint_not_found',
  'webhook_delivery_not_found',
  'member_not_found',
  'session_not_found',
  'passkey_not_found',
] as const;

/**
 * Sign-in and authorisation of the team (AUTH401, AUTH403 and RATE429 answers). One answer for an unknown e-mail
 * and a wrong password (`credentials_invalid`), so the answer never tells which accounts exist.
 */
export const AUTH_REASONS = [
  'credentials_invalid',
  'sign_in_locked',
  'second_factor_invalid',
  'session_required',
  'session_expired',
  'csrf_token_invalid',
  'permission_denied',
  'step_up_required',
  'second_factor_not_enrolled',
  'two_factor_required',
  'token_invalid',
  'password_rejected',
  'passkey_invalid',
  'owner_only',
] as const;

export const ERROR_REASONS = [...CONFLICT_REASONS, ...VALIDATION_REASONS, ...NOT_FOUND_REASONS, ...AUTH_REASONS] as const;
export type ConflictReason = (typeof CONFLICT_REASONS)[number];
export type ValidationReason = (typeof VALIDATION_REASONS)[number];
export type NotFoundReason = (typeof NOT_FOUND_REASONS)[number];
export type AuthReason = (typeof AUTH_REASONS)[number];
export type ErrorReason = (typeof ERROR_REASONS)[number];
