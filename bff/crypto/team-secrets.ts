import { createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * The team's secrets: passwords (argon2id), and the random values whose digests the database keeps (session ids,
 * invitation and reset tokens, backup codes, CSRF tokens). Nothing here is stored or logged in the clear.
 */

/** OWASP's argon2id baseline: 19 MiB, two passes, one lane (about 80 ms on one core here). */
// `algorithm: 2` is the package's `Algorithm.Argon2id` (a const enum, which this build's module syntax cannot read).
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2);

/** Never throws: a damaged stored hash is a wrong password. */
export async function passwordMatches(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * A hash no password matches, made once per process: an unknown e-mail is checked against it, so its answer takes
 * the time a wrong password takes.
 */
let decoy: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(32).toString('base64url'));
  return decoy;
}

/** 256 random bits, URL-safe: session ids, invitation and reset tokens. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of a random token: its SHA-256 (the token itself has 256 bits, nothing to guess). */
export const tokenDigest = (token: string): Buffer => createHash('sha256').update(token).digest();

const BACKUP_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'; // no 0/O, 1/I/L

/** A backup code: 12 characters (about 59 bits) in three groups, `7KQ2-M9XD-4TPA`. */
export function newBackupCode(): string {
  const characters = Array.from({ length: 12 }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]!);
  return [0, 4, 8].map((start) => characters.slice(start, start + 4).join('')).join('-');
}

/** Keys derived from the master key for the team's digests. */
export class TeamKeys {
  private readonly backupKey: Buffer;
  private readonly csrfKey: Buffer;

  constructor(masterKey: Buffer) {
    this.backupKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'checkout team backup codes', 32));
    this.csrfKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'checkout team csrf tokens', 32));
  }

  /** Keyed, so the table alone does not let anyone try the codes' space offline; case and dashes do not count. */
  backupCodeDigest(userId: number, code: string): Buffer {
    const normalised = code.toUpperCase().replace(/[^0-9A-Z]/g, '');
    return createHmac('sha256', this.backupKey).update(`${userId}:${normalised}`).digest();
  }

  /** The CSRF token of a session: bound to its id (a new session has a new token), never stored. */
  csrfToken(sessionDigest: Buffer): string {
    return createHmac('sha256', this.csrfKey).update(sessionDigest).digest('base64url');
  }

  csrfTokenMatches(sessionDigest: Buffer, sent: string | undefined): boolean {
    if (sent === undefined) return false;
    const expected = Buffer.from(this.csrfToken(sessionDigest));
    const given = Buffer.from(sent);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
