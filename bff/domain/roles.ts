import type { Permission, Role } from '../../shared/contract/permissions.ts';

/**
 * What each role of a merchant's team may do: the one table. The README's "Dashboard and team" section, "Roles",
 * shows the same (a test compares them). An endpoint names the permission it needs in the contract
 * (`shared/contract/`); the auth plugin checks it against this table on every call of a signed-in member.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: ['orders.read', 'customers.manage', 'refunds.create', 'links.write', 'keys.rotate', 'webhooks.write', 'settings.write', 'team.manage', 'audit.read', 'security.manage'],
  admin: ['orders.read', 'customers.manage', 'refunds.create', 'links.write', 'keys.rotate', 'webhooks.write', 'settings.write', 'team.manage', 'audit.read'],
  developer: ['orders.read', 'links.write', 'keys.rotate', 'webhooks.write', 'audit.read'],
  support: ['orders.read', 'customers.manage', 'refunds.create'],
  viewer: ['orders.read'],
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export type { Permission, Role };
