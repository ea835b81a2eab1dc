import type { ApiError } from '../api/client.ts';
import type { ErrorReason } from '../../shared/contract/reasons.ts';
import type { Localizer, MessageKey } from '../i18n/localizer.ts';

/**
 * An error from the API client. Checked by name rather than with `instanceof`, so the first paint does not need
 * the client module (it loads, with its schemas, while the first screen is drawn).
 */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && error.name === 'ApiError' && typeof (error as Partial<ApiError>).code === 'string';
}

/** Errors the customer can fix by trying again; the others need the merchant. */
export function isRetryable(error: unknown): boolean {
  return !isApiError(error) || ['NETWORK', 'ERR500', 'RATE429', 'UNREADABLE', 'IDEM422'].includes(error.code);
}

/** One sentence saying what happened and what to do about it. */
export function describeError(error: unknown, localizer: Localizer, merchant: string): string {
  if (!isApiError(error)) return localizer.t('errorUnreadable');
  switch (error.code) {
    case 'NETWORK':
      return localizer.t('errorNetwork');
    case 'AUTH401':
    case 'AUTH403':
    case 'NO_KEY':
      return localizer.t('errorAuth', { merchant });
    case 'VAL400':
      // The server's detail is in English: other languages get the sentence without it.
      return localizer.language === 'en'
        ? localizer.t('errorInvalid', { detail: error.message.replace(/\.$/, ''), merchant })
        : localizer.t('errorInvalidGeneric', { merchant });
    case 'NF404':
      return localizer.t('errorNotFound', { merchant });
    case 'CON409':
      return localizer.t((error.reason && CONFLICTS[error.reason]) || 'errorConflict');
    case 'RATE429':
      return localizer.t('errorRate');
    case 'ERR500':
      return localizer.t('errorServer', { requestId: error.requestId ?? '—' });
    default:
      return localizer.t('errorUnreadable');
  }
}

/** A refusal's sentence by its reason: the customer learns what happened to this order, not a generic conflict. */
const CONFLICTS: Partial<Record<ErrorReason, MessageKey>> = {
  order_already_paid: 'errorAlreadyPaid',
  order_reversed: 'errorReversed',
  link_capacity_reached: 'errorLinkUsedUp',
  link_inactive: 'errorLinkInactive',
  transfer_partly_received: 'errorTransferPartlyReceived',
  transfer_account_expired: 'errorAccountExpired',
  transfer_account_closed: 'errorAccountExpired',
};

const DECLINES: Record<string, MessageKey> = {
  '05': 'decline05',
  '12': 'decline12',
  '14': 'decline14',
  '51': 'decline51',
  '54': 'decline54',
  '55': 'decline55',
  '91': 'decline91',
};

/** What an ISO 8583 decline code means for the customer. */
export function describeDecline(code: string, localizer: Localizer): string {
  return localizer.t(DECLINES[code] ?? 'declineOther');
}
