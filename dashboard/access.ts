import type { Permission } from '../shared/contract/permissions.ts';
import type { Me } from './api/session.ts';

/**
 * What the signed-in member may do: the `permissions` of its `GET /checkout/team/me` answer. The screens and the
 * navigation hide what a role may not do (the server refuses it anyway). `Me` (api/session.ts) carries them.
 */
export type WithPermissions = { permissions?: readonly Permission[] };

export function allows(me: (Me & WithPermissions) | undefined, permission: Permission): boolean {
  return me?.permissions?.includes(permission) ?? false;
}
