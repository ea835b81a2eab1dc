/**
 * The hash router: `#/`, `#/payments`, `#/payments/:reference`, `#/sign-in`, `#/accept?token=…`. A hash keeps every
 * address one page for the server (`/dashboard/`), which serves no other. Each screen's module is loaded the first
 * time it is shown (`import()`), so the shell carries none of them.
 */
export type Route =
  | { name: 'home' }
  | { name: 'payments' }
  | { name: 'payment'; reference: string }
  | { name: 'sign-in'; next: string | undefined }
  | { name: 'accept'; token: string | undefined }
  | { name: 'not-found' }
  // The operations screens (issue 32 items 5 to 8).
  | { name: 'links' }
  | { name: 'link'; reference: string }
  | { name: 'subscriptions' }
  | { name: 'customers' }
  | { name: 'customer'; customerId: string }
  | { name: 'developers' }
  | { name: 'settings' }
  | { name: 'team' }
  | { name: 'audit' };

export type RouteName = Route['name'];

/** Screens a signed-out visitor may see; every other one needs a session. */
export const PUBLIC_ROUTES: ReadonlySet<RouteName> = new Set(['sign-in', 'accept']);

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const query = new URLSearchParams(search);
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0) return { name: 'home' };
  if (segments[0] === 'payments' && segments.length === 1) return { name: 'payments' };
  if (segments[0] === 'payments' && segments.length === 2) return { name: 'payment', reference: decodeURIComponent(segments[1]!) };
  if (segments[0] === 'sign-in' && segments.length === 1) {
    const next = query.get('next') ?? undefined;
    // Only an address of this dashboard: never a way to send the user elsewhere after signing in.
    return { name: 'sign-in', next: next?.startsWith('#/') ? next : undefined };
  }
  if (segments[0] === 'accept' && segments.length === 1) return { name: 'accept', token: query.get('token') ?? undefined };
  return operationsRoute(segments) ?? { name: 'not-found' };
}

/** The operations screens' addresses: `#/links[/:reference]`, `#/customers[/:id]`, `#/subscriptions`, and the rest. */
function operationsRoute(segments: string[]): Route | undefined {
  const [first, second] = segments;
  if (segments.length === 2 && first === 'links') return { name: 'link', reference: decodeURIComponent(second!) };
  if (segments.length === 2 && first === 'customers') return { name: 'customer', customerId: decodeURIComponent(second!) };
  if (segments.length !== 1) return undefined;
  const names = ['links', 'subscriptions', 'customers', 'developers', 'settings', 'team', 'audit'] as const;
  return names.find((name) => name === first) ? { name: first as (typeof names)[number] } : undefined;
}

export const hrefOf = {
  home: '#/',
  payments: '#/payments',
  payment: (reference: string) => `#/payments/${encodeURIComponent(reference)}`,
  signIn: (next?: string) => (next ? `#/sign-in?next=${encodeURIComponent(next)}` : '#/sign-in'),
  links: '#/links',
  link: (reference: string) => `#/links/${encodeURIComponent(reference)}`,
  subscriptions: '#/subscriptions',
  customers: '#/customers',
  customer: (customerId: string) => `#/customers/${encodeURIComponent(customerId)}`,
  developers: '#/developers',
  settings: '#/settings',
  team: '#/team',
  audit: '#/audit',
};

/** Each screen's module, loaded on first use. */
export const SCREENS: Record<Exclude<RouteName, 'not-found'>, () => Promise<unknown>> = {
  home: () => import('./screens/home.ts'),
  payments: () => import('./screens/payments.ts'),
  payment: () => import('./screens/payment.ts'),
  'sign-in': () => import('./screens/sign-in.ts'),
  accept: () => import('./screens/accept.ts'),
  links: () => import('./screens/links.ts'),
  link: () => import('./screens/link.ts'),
  subscriptions: () => import('./screens/subscriptions.ts'),
  customers: () => import('./screens/customers.ts'),
  customer: () => import('./screens/customer.ts'),
  developers: () => import('./screens/developers.ts'),
  settings: () => import('./screens/settings.ts'),
  team: () => import('./screens/team.ts'),
  audit: () => import('./screens/audit.ts'),
};
