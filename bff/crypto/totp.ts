import { generateSecret, generateURI, verify } from 'otplib';

/**
 * TOTP (RFC 6238) as authenticator apps speak it: SHA-1, 6 digits, 30-second steps, one step of drift either way.
 * A code is accepted once: the step it matched is kept and later codes must come from a later step.
 */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

export const totpUri = (secret: string, issuer: string, account: string): string => generateURI({ issuer, label: account, secret });

/** The time step the code matched, or undefined. */
export async function verifyTotp(secret: string, code: string, now: Date, lastStep: number | null): Promise<number | undefined> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: 30,
    ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
  }).catch(() => ({ valid: false as const }));
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
