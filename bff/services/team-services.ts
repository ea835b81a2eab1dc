import { TeamKeys } from '../crypto/team-secrets.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import { SecondFactors } from './second-factors.ts';
import { SignIn } from './sign-in.ts';
import { TeamService, totpIssuer } from './team.ts';
import { AuditLog } from './team-audit.ts';
import { TeamSessions } from './team-sessions.ts';

/** The team's services on one storage (the server's, or the merchant CLI's). */
export function teamServices(storage: Storage, clock: Clock, masterKey: Buffer, publicBaseUrl: string) {
  const keys = new TeamKeys(masterKey);
  const audit = new AuditLog(storage, clock);
  const sessions = new TeamSessions(storage, clock, keys);
  const base = new URL(publicBaseUrl);
  // Passkeys belong to the host of PUBLIC_BASE_URL (the relying party id) and are asserted from its origin.
  const factors = new SecondFactors(storage, clock, masterKey, keys, { id: base.hostname, origin: base.origin, name: 'Checkout dashboard' });
  const team = new TeamService(storage, clock, publicBaseUrl, sessions, factors, audit);
  const signIn = new SignIn(storage, clock, sessions, factors, audit, (merchantId) => totpIssuer(storage, merchantId));
  return { team, sessions, signIn, audit, factors };
}
