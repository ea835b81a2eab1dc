/**
 * What the team's audit log records (`GET /checkout/team/audit`): every sign-in and its failures, sessions ended,
 * invitations, role changes, second-factor changes, and every action that needed a fresh second factor. Free of
 * zod: the dashboard imports it at run time to name them.
 */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_in_failed',
  'sign_in_locked',
  'sign_out',
  'session_revoked',
  'step_up',
  'step_up_failed',
  'invitation_created',
  'invitation_accepted',
  'password_reset_issued',
  'password_reset',
  'role_changed',
  'member_removed',
  'totp_enabled',
  'totp_disabled',
  'backup_codes_regenerated',
  'backup_code_used',
  'passkey_added',
  'passkey_removed',
  'two_factor_requirement_changed',
  'keys_rotated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
