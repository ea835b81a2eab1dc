/**
 * The payments list's saved views: a name and the filters, kept in this browser's localStorage (per browser, not
 * per team member: the team-accounts backend may later keep them server-side).
 */
export interface PaymentFilters {
  q: string;
  state: string[];
  method: string;
  currency: string;
  /** Local dates, `YYYY-MM-DD`; `to` is inclusive. */
  from: string;
  to: string;
  amountMin: string;
  amountMax: string;
}

export const EMPTY_FILTERS: PaymentFilters = { q: '', state: [], method: '', currency: '', from: '', to: '', amountMin: '', amountMax: '' };

export interface SavedView {
  name: string;
  filters: PaymentFilters;
}

const KEY = 'dashboard.payments.views';

export function loadViews(): SavedView[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((view): view is SavedView => typeof view?.name === 'string' && typeof view?.filters === 'object' && view.filters !== null)
      .map((view) => ({ name: view.name, filters: { ...EMPTY_FILTERS, ...view.filters, state: Array.isArray(view.filters.state) ? view.filters.state.map(String) : [] } }));
  } catch {
    return [];
  }
}

export function storeViews(views: readonly SavedView[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(views));
  } catch {
    // No storage (private browsing): the views last for this visit.
  }
}
