import { z } from 'zod';
import { successEnvelope } from '../envelope.ts';
import { AUDIT_ACTIONS } from './audit-actions.ts';
import { endpoint } from './endpoint.ts';
import { isoTimestamp, listQueryShape, pageEnvelope } from './lists.ts';
import { PERMISSIONS, ROLES } from './permissions.ts';

/**
 * The merchant's team (the dashboard's own calls, `session`): signing in with a password and a second factor or
 * with a passkey, sessions, second factors, members and roles, and the audit log. The session travels in an
 * HttpOnly cookie; every state-changing call with it sends the session's CSRF token in `x-csrf-token` (from
 * `GET /checkout/team/me` or the sign-in answer); the mode (test or live) a member works in travels in
 * `checkout-mode` (default `test`).
 */
export const CSRF_HEADER = 'x-csrf-token';
export const MODE_HEADER = 'checkout-mode';
/** Minutes a proved second factor allows the actions that need one (refunds, keys, webhooks, settings, team). */
export const STEP_UP_MINUTES = 5;
export const MIN_PASSWORD_LENGTH = 12;

const done = successEnvelope(z.object({}).meta({ id: 'Done' }));
const tags = ['Team'];

export const roleSchema = z.enum(ROLES);
export const permissionSchema = z.enum(PERMISSIONS);
const email = z.string().trim().max(254, { message: 'must be at most 254 characters' }).pipe(z.email({ message: 'must be an e-mail address' }));
/** At sign-in any text is compared: the rules are for new passwords only, and the answer never says which failed. */
const anyPassword = z.string().min(1, { message: 'is required' }).max(256, { message: 'must be at most 256 characters' });
const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { message: `must be at least ${MIN_PASSWORD_LENGTH} characters` })
  .max(256, { message: 'must be at most 256 characters' });
const totpCode = z.string().trim().regex(/^\d{6}$/, { message: 'must be the 6 digits your authenticator app shows' });
const backupCode = z.string().trim().regex(/^[A-Za-z0-9-]{8,24}$/, { message: 'must be one of your backup codes, e.g. 7KQ2-M9XD-4TPA' });
const oneTimeToken = z.string().trim().regex(/^[A-Za-z0-9_-]{20,100}$/, { message: 'is not a link this server gave' });

/** A WebAuthn ceremony's options (`PublicKeyCredentialCreationOptionsJSON` or `...RequestOptionsJSON`), for `@simplewebauthn/browser`. */
const webauthnOptions = z.record(z.string(), z.unknown()).meta({ id: 'WebAuthnOptions' });
/** What `@simplewebauthn/browser`'s `startRegistration` / `startAuthentication` resolve with. */
export const webauthnResponseSchema = z
  .object({
    id: z.string().max(1024),
    rawId: z.string().max(1024),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.string().max(40).optional(),
  })
  .meta({ id: 'WebAuthnResponse' });

const totpSecret = z
  .object({
    secret: z.string().meta({ description: 'Base32; shown once, for typing into an authenticator app.' }),
    uri: z.string().meta({ description: 'The same as an `otpauth://totp/...` URI, for a QR code.' }),
  })
  .meta({ id: 'TotpEnrolment' });

export const SIGN_IN_STATES = ['signed_in', 'second_factor_required', 'enrolment_required'] as const;
export const signInStateSchema = z
  .object({
    status: z.enum(SIGN_IN_STATES).meta({
      description:
        '`signed_in`: the session is open. `second_factor_required`: send one of `secondFactors` to `/checkout/team/sign-in/second-factor`. ' +
        '`enrolment_required`: the merchant requires two factors; add `totp` to an authenticator app and confirm a code at `/checkout/team/sign-in/totp`.',
    }),
    secondFactors: z.array(z.enum(['totp', 'backup_code', 'passkey'])),
    totp: totpSecret.nullable(),
    /** Backup codes, shown once, when this step enrolled TOTP. */
    backupCodes: z.array(z.string()).nullable(),
    csrfToken: z.string(),
  })
  .meta({ id: 'SignInState' });
const signInAnswer = successEnvelope(signInStateSchema);

const signInErrors = ['VAL400', 'AUTH401', 'RATE429'] as const;

export const signIn = endpoint({
  method: 'POST',
  path: '/checkout/team/sign-in',
  auth: 'none',
  summary: 'Sign in with e-mail and password',
  description:
    'The first step. An unknown e-mail and a wrong password get the same answer (`AUTH401`, `credentials_invalid`); 10 failures in 15 minutes lock the account for 15 minutes (`RATE429`, `sign_in_locked`, with `Retry-After`). Opens a new session (a new cookie) at every step.',
  tags,
  body: z.object({ email, password: anyPassword }),
  success: signInAnswer,
  errors: signInErrors,
});

export const signInSecondFactor = endpoint({
  method: 'POST',
  path: '/checkout/team/sign-in/second-factor',
  auth: 'none',
  summary: 'Finish signing in with a TOTP or backup code',
  description:
    'With the cookie and CSRF token of the password step. A backup code works once. A passkey answers options from `/checkout/team/sign-in/passkey/options` and must be this member’s.',
  tags,
  body: z.discriminatedUnion('method', [
    z.object({ method: z.literal('totp'), code: totpCode }),
    z.object({ method: z.literal('backup_code'), code: backupCode }),
    z.object({ method: z.literal('passkey'), response: webauthnResponseSchema }),
  ]),
  success: signInAnswer,
  errors: signInErrors,
});

export const signInEnrolTotp = endpoint({
  method: 'POST',
  path: '/checkout/team/sign-in/totp',
  auth: 'none',
  summary: 'Confirm TOTP enrolment before the first session',
  description: 'When the sign-in answered `enrolment_required`: a code from the authenticator app proves the secret was added; the answer carries the backup codes, once.',
  tags,
  body: z.object({ code: totpCode }),
  success: signInAnswer,
  errors: signInErrors,
});

export const signInPasskeyOptions = endpoint({
  method: 'POST',
  path: '/checkout/team/sign-in/passkey/options',
  auth: 'none',
  summary: 'Start signing in with a passkey',
  description: 'The options for `navigator.credentials.get` (a discoverable credential: no e-mail needed); the challenge works once, for 5 minutes.',
  tags,
  success: successEnvelope(z.object({ options: webauthnOptions })),
  errors: ['RATE429'],
});

export const signInPasskey = endpoint({
  method: 'POST',
  path: '/checkout/team/sign-in/passkey',
  auth: 'none',
  summary: 'Sign in with a passkey',
  description: 'A passkey with user verification is both factors: the session opens at once, and counts as a fresh second factor.',
  tags,
  body: z.object({ response: webauthnResponseSchema }),
  success: signInAnswer,
  errors: signInErrors,
});

export const acceptInvitation = endpoint({
  method: 'POST',
  path: '/checkout/team/invitations/accept',
  auth: 'none',
  summary: 'Accept an invitation and choose a password',
  description:
    `The token of the invitation link (\`/dashboard/#/accept?token=...\`), once, before it expires (7 days). The password: at least ${MIN_PASSWORD_LENGTH} characters, not the e-mail, not a common password (\`VAL400\`, \`password_rejected\`). ` +
    'Answers like a sign-in: `enrolment_required` when the merchant requires two factors, else `signed_in`.',
  tags,
  body: z.object({ token: oneTimeToken, password: newPassword }),
  success: signInAnswer,
  errors: ['VAL400', 'AUTH401', 'RATE429'],
});

export const resetPassword = endpoint({
  method: 'POST',
  path: '/checkout/team/password-reset',
  auth: 'none',
  summary: 'Set a new password with a reset link',
  description: 'The token of a reset link (`npm run merchant -- user reset-password`), once, within an hour. Ends every session of the account; sign in again.',
  tags,
  body: z.object({ token: oneTimeToken, password: newPassword }),
  success: done,
  errors: ['VAL400', 'AUTH401', 'RATE429'],
});

export const signOut = endpoint({
  method: 'POST',
  path: '/checkout/team/sign-out',
  auth: 'session',
  summary: 'Sign out',
  description: 'Ends this session on the server (the cookie stops working everywhere) and clears the cookie.',
  tags,
  success: done,
});

const passkeySchema = z
  .object({ id: z.number().int(), name: z.string(), createdAt: isoTimestamp, lastUsedAt: isoTimestamp.nullable() })
  .meta({ id: 'Passkey' });

export const meSchema = z
  .object({
    user: z.object({ id: z.number().int(), email: z.string(), role: roleSchema }),
    merchant: z.object({ id: z.number().int(), name: z.string() }),
    mode: z.enum(['test', 'live']),
    permissions: z.array(permissionSchema),
    csrfToken: z.string(),
    twoFactor: z.object({
      required: z.boolean().meta({ description: 'The merchant requires two factors of every member.' }),
      totp: z.boolean(),
      passkeys: z.array(passkeySchema),
      backupCodesLeft: z.number().int(),
    }),
    stepUpUntil: isoTimestamp.nullable().meta({ description: 'Until when actions that need a fresh second factor are allowed without proving one again.' }),
  })
  .meta({ id: 'TeamMe' });

export const me = endpoint({
  method: 'GET',
  path: '/checkout/team/me',
  auth: 'session',
  summary: 'Who is signed in',
  description: 'The member, its merchant, role and permissions, the mode, the CSRF token to send on every state-changing call, and its second factors.',
  tags,
  success: successEnvelope(meSchema),
});

export const sessionSchema = z
  .object({
    id: z.number().int(),
    current: z.boolean(),
    createdAt: isoTimestamp,
    lastSeenAt: isoTimestamp,
    expiresAt: isoTimestamp,
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
  })
  .meta({ id: 'TeamSession' });

export const listSessions = endpoint({
  method: 'GET',
  path: '/checkout/team/sessions',
  auth: 'session',
  summary: "The member's active sessions",
  description: 'Every open session of the signed-in member, newest first, the current one marked.',
  tags,
  success: successEnvelope(z.array(sessionSchema)),
});

export const revokeSession = endpoint({
  method: 'DELETE',
  path: '/checkout/team/sessions/:sessionId',
  auth: 'session',
  summary: 'End one of my sessions',
  description: 'Its cookie stops working at once (ending the current one signs out).',
  tags,
  params: z.object({ sessionId: z.coerce.number().int().positive() }),
  success: done,
  errors: ['NF404'],
});

export const stepUp = endpoint({
  method: 'POST',
  path: '/checkout/team/step-up',
  auth: 'session',
  summary: 'Prove a second factor again',
  description: `Before refunds, key rotation, webhook, fee and method settings, and team changes: a TOTP code, a backup code or a passkey allows them for ${STEP_UP_MINUTES} minutes. The session id changes (a new cookie and CSRF token).`,
  tags,
  body: z.discriminatedUnion('method', [
    z.object({ method: z.literal('totp'), code: totpCode }),
    z.object({ method: z.literal('backup_code'), code: backupCode }),
    z.object({ method: z.literal('passkey'), response: webauthnResponseSchema }),
  ]),
  success: successEnvelope(z.object({ stepUpUntil: isoTimestamp, csrfToken: z.string() })),
  errors: ['VAL400', 'RATE429'],
});

export const stepUpPasskeyOptions = endpoint({
  method: 'POST',
  path: '/checkout/team/step-up/passkey/options',
  auth: 'session',
  summary: 'Start a passkey step-up',
  description: "Options for `navigator.credentials.get` limited to the member's passkeys.",
  tags,
  success: successEnvelope(z.object({ options: webauthnOptions })),
});

/** Enrolling a first second factor needs the password again; a later one needs a step-up. */
const reauthentication = z.object({ password: anyPassword.optional().meta({ description: 'Needed when the member has no second factor yet.' }) });

export const startTotp = endpoint({
  method: 'POST',
  path: '/checkout/team/me/totp',
  auth: 'session',
  summary: 'Start TOTP enrolment',
  description: 'A new secret, shown once; it replaces the current one only once a code confirms it. Needs a step-up, or the password when the member has no second factor yet.',
  tags,
  body: reauthentication,
  success: successEnvelope(totpSecret),
  errors: ['VAL400'],
});

export const confirmTotp = endpoint({
  method: 'POST',
  path: '/checkout/team/me/totp/confirm',
  auth: 'session',
  summary: 'Confirm TOTP enrolment',
  description: 'A code from the app for the new secret; answers the backup codes (10, each works once), shown once.',
  tags,
  body: z.object({ code: totpCode }),
  success: successEnvelope(z.object({ backupCodes: z.array(z.string()) })),
  errors: ['VAL400', 'CON409'],
});

export const disableTotp = endpoint({
  method: 'DELETE',
  path: '/checkout/team/me/totp',
  auth: 'session',
  stepUp: { audit: 'totp_disabled' },
  summary: 'Turn TOTP off',
  description: 'Refused (`two_factor_required`) while the merchant requires two factors and no passkey remains.',
  tags,
  success: done,
});

export const regenerateBackupCodes = endpoint({
  method: 'POST',
  path: '/checkout/team/me/backup-codes',
  auth: 'session',
  stepUp: { audit: 'backup_codes_regenerated' },
  summary: 'New backup codes',
  description: 'Ten new codes, shown once; the old ones stop working.',
  tags,
  success: successEnvelope(z.object({ backupCodes: z.array(z.string()) })),
});

export const passkeyRegistrationOptions = endpoint({
  method: 'POST',
  path: '/checkout/team/me/passkeys/options',
  auth: 'session',
  summary: 'Start adding a passkey',
  description: 'Options for `navigator.credentials.create` (rpID: the host of PUBLIC_BASE_URL). Needs a step-up, or the password when the member has no second factor yet.',
  tags,
  body: reauthentication,
  success: successEnvelope(z.object({ options: webauthnOptions })),
  errors: ['VAL400'],
});

export const registerPasskey = endpoint({
  method: 'POST',
  path: '/checkout/team/me/passkeys',
  auth: 'session',
  summary: 'Add a passkey',
  description: 'The authenticator’s answer to the options; the passkey then signs in alone and proves step-ups.',
  tags,
  body: z.object({ response: webauthnResponseSchema, name: z.string().trim().min(1).max(60).default('Passkey') }),
  success: successEnvelope(passkeySchema),
  errors: ['VAL400'],
});

export const removePasskey = endpoint({
  method: 'DELETE',
  path: '/checkout/team/me/passkeys/:passkeyId',
  auth: 'session',
  stepUp: { audit: 'passkey_removed' },
  summary: 'Remove a passkey',
  description: 'Refused (`two_factor_required`) when it is the last second factor and the merchant requires two.',
  tags,
  params: z.object({ passkeyId: z.coerce.number().int().positive() }),
  success: done,
  errors: ['NF404'],
});

export const memberSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    role: roleSchema,
    status: z.enum(['invited', 'active']),
    twoFactor: z.object({ totp: z.boolean(), passkeys: z.number().int() }),
    lastSignInAt: isoTimestamp.nullable(),
    createdAt: isoTimestamp,
  })
  .meta({ id: 'TeamMember' });

export const listMembers = endpoint({
  method: 'GET',
  path: '/checkout/team/members',
  auth: 'session',
  permission: 'team.manage',
  summary: 'The team',
  description: 'Every member and invitation: role, second factors, last sign-in.',
  tags,
  success: successEnvelope(z.array(memberSchema)),
});

export const inviteMember = endpoint({
  method: 'POST',
  path: '/checkout/team/invitations',
  auth: 'session',
  permission: 'team.manage',
  stepUp: { audit: 'invitation_created' },
  summary: 'Invite a member',
  description: 'Answers the one-time link to pass on (valid 7 days). Only an owner invites an owner.',
  tags,
  body: z.object({ email, role: roleSchema }),
  success: successEnvelope(z.object({ member: memberSchema, acceptUrl: z.string(), expiresAt: isoTimestamp })),
  errors: ['VAL400', 'CON409'],
});

export const changeRole = endpoint({
  method: 'PATCH',
  path: '/checkout/team/members/:memberId',
  auth: 'session',
  permission: 'team.manage',
  stepUp: { audit: 'role_changed' },
  summary: "Change a member's role",
  description: 'Only an owner grants or takes the owner role; the last owner keeps it (`last_owner`).',
  tags,
  params: z.object({ memberId: z.coerce.number().int().positive() }),
  body: z.object({ role: roleSchema }),
  success: successEnvelope(memberSchema),
  errors: ['VAL400', 'NF404', 'CON409'],
});

export const removeMember = endpoint({
  method: 'DELETE',
  path: '/checkout/team/members/:memberId',
  auth: 'session',
  permission: 'team.manage',
  stepUp: { audit: 'member_removed' },
  summary: 'Remove a member',
  description: 'Ends its sessions at once. Only an owner removes an owner; the last owner stays (`last_owner`).',
  tags,
  params: z.object({ memberId: z.coerce.number().int().positive() }),
  success: done,
  errors: ['NF404', 'CON409'],
});

export const setTwoFactorRequirement = endpoint({
  method: 'PUT',
  path: '/checkout/team/settings/two-factor',
  auth: 'session',
  permission: 'security.manage',
  stepUp: { audit: 'two_factor_requirement_changed' },
  summary: 'Require two factors of everyone',
  description: 'The owner only. While on, a member without a second factor enrols TOTP at its next sign-in, before any session.',
  tags,
  body: z.object({ required: z.boolean() }),
  success: successEnvelope(z.object({ required: z.boolean() })),
});

export const auditEntrySchema = z
  .object({
    id: z.number().int(),
    at: isoTimestamp,
    action: z.enum(AUDIT_ACTIONS),
    actor: z.object({ id: z.number().int().nullable(), email: z.string().nullable(), role: roleSchema.nullable() }),
    ip: z.string().nullable(),
    target: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });

export const listAudit = endpoint({
  method: 'GET',
  path: '/checkout/team/audit',
  auth: 'session',
  permission: 'audit.read',
  summary: 'The audit log',
  description: 'Sign-ins and their failures, sessions ended, invitations, role and second-factor changes, and every action that needed a step-up; newest first, by keyset like the orders list.',
  tags,
  query: z.object(listQueryShape),
  success: pageEnvelope(auditEntrySchema, 'AuditPage'),
  errors: ['VAL400'],
});

export const rotateKeys = endpoint({
  method: 'POST',
  path: '/checkout/keys/rotate',
  auth: 'session',
  permission: 'keys.rotate',
  stepUp: { audit: 'keys_rotated' },
  summary: "Rotate the mode's API keys",
  description: 'New publishable and secret keys and encryption key for the mode in `checkout-mode`; the old ones stop working at once. The secret key is shown once.',
  tags: ['Keys'],
  success: successEnvelope(
    z.object({ subsidiaryId: z.number().int(), publishableKey: z.string(), secretKey: z.string(), encryptionKey: z.string() }).meta({ id: 'RotatedKeys' }),
  ),
});
