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
  | { name: 'not-found' };

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
  return { name: 'not-found' };
}

export const hrefOf = {
  home: '#/',
  payments: '#/payments',
  payment: (reference: string) => `#/payments/${encodeURIComponent(reference)}`,
  signIn: (next?: string) => (next ? `#/sign-in?next=${encodeURIComponent(next)}` : '#/sign-in'),
};

/** Each screen's module, loaded on first use. */
export const SCREENS: Record<Exclude<RouteName, 'not-found'>, () => Promise<unknown>> = {
  home: () => import('./screens/home.ts'),
  payments: () => import('./screens/payments.ts'),
  payment: () => import('./screens/payment.ts'),
  'sign-in': () => import('./screens/sign-in.ts'),
  accept: () => import('./screens/accept.ts'),
};
