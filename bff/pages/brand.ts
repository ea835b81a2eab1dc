import type { Merchant } from '../domain/merchant.ts';
import { html, type SafeHtml } from './html.ts';

/** Whose page this is, as the widget's header shows it: the merchant's logo (https only), else its initials, and its name. */
export type Brand = Pick<Merchant, 'name' | 'logoUrl'>;

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join('');
}

export function merchantMark(brand: Brand): SafeHtml {
  const logo = brand.logoUrl?.startsWith('https://') ? brand.logoUrl : undefined;
  return html`<div class="brand">${logo ? html`<img class="logo" src="${logo}" alt="">` : html`<span class="logo monogram" aria-hidden="true">${initialsOf(brand.name)}</span>`}<p class="merchant">${brand.name}</p></div>`;
}
