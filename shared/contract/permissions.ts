/**
 * The team's roles and the permissions an endpoint may ask for. Which role holds which permission is one table, in
 * the backend (`bff/domain/roles.ts`) and in the README ("Dashboard and team", "Roles"); a signed-in member's
 * `GET /checkout/team/me` answer lists its own, so the dashboard hides what it may not do. Free of zod: the
 * dashboard imports it at run time.
 */
export const ROLES = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'orders.read',
  // Notes on orders and revoking a customer's saved card: the support desk's work, no money moves.
  'customers.manage',
  'refunds.create',
  'links.write',
  'keys.rotate',
  'webhooks.write',
  'settings.write',
  'team.manage',
  'audit.read',
  // The owner's alone: whether every member must sign in with two factors.
  'security.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
