import { ERROR_CODES, type ErrorCode } from '../shared/envelope.ts';
import type { AuthReason, ConflictReason, ErrorReason, NotFoundReason, ValidationReason } from '../shared/contract/reasons.ts';

/**
 * Errors are values with a code from the closed set of protocol.md section 1. Services throw them through the
 * factories below; the envelope plugin turns them into the response. The HTTP status follows from the code,
 * except where a more precise status exists for the same meaning (413 for an oversize body, 405 for a wrong method).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly headers: Record<string, string>;
  /** Why, from the closed set a client maps to words; travels in the envelope beside the message. */
  readonly reason: ErrorReason | undefined;

  constructor(code: ErrorCode, message: string, options: { httpStatus?: number; headers?: Record<string, string>; reason?: ErrorReason } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.reason = options.reason;
    this.httpStatus = options.httpStatus ?? ERROR_CODES[code];
    this.headers = options.headers ?? {};
  }
}

export const invalid = (message: string, httpStatus?: number, reason?: ValidationReason | 'password_rejected') =>
  new AppError('VAL400', message, { ...(httpStatus ? { httpStatus } : {}), ...(reason ? { reason } : {}) });
export const unauthenticated = (message: string, reason?: AuthReason) => new AppError('AUTH401', message, reason ? { reason } : {});
export const forbidden = (message: string, reason?: AuthReason) => new AppError('AUTH403', message, reason ? { reason } : {});
/** Too many failed sign-in steps for an account or from an address: the same answer whether the account exists. */
export const signInLocked = (retryAfterSeconds: number) =>
  new AppError('RATE429', `Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`, {
    headers: { 'retry-after': String(retryAfterSeconds) },
    reason: 'sign_in_locked',
  });
export const notFound = (message: string, reason?: NotFoundReason) => new AppError('NF404', message, reason ? { reason } : {});
export const conflict = (message: string, reason?: ConflictReason) => new AppError('CON409', message, reason ? { reason } : {});
export const idempotencyMismatch = (message: string) => new AppError('IDEM422', message);
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('RATE429', `Too many requests. Try again in ${retryAfterSeconds} seconds.`, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
