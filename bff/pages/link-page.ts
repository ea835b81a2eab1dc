import { formatMoney } from '../../shared/money.ts';
import type { StoredLink } from '../repositories/links.ts';
import { html, page, type SafeHtml } from './html.ts';

/**
 * The payment-link page: the link's name, description and background image, then a plain form for the
 * customer's details (and the amount, when the link leaves it to the customer). No script: it works before
 * the checkout loads and under the strict CSP. The form posts, so the customer's name, e-mail and phone never
 * appear in an address (browser history, server logs, the Referer header); the answer sends the browser on to the
 * order's own address. `orderReference` is the order this form starts: sent twice, it finds the same order.
 */
export type LinkFormValues = { firstname: string; lastname: string; email: string; mobile: string; amount: string };
export type LinkFormErrors = Partial<Record<keyof LinkFormValues, string>>;

export function linkHeader(link: StoredLink, merchantName: string): SafeHtml {
  return html`<header class="link-header">
${link.backgroundImage ? html`<img class="link-background" src="${link.backgroundImage}" alt="">` : ''}
<p class="merchant">${merchantName}</p>
<h1>${link.name}</h1>
<p>${link.description}</p>
${link.amountMinor === null ? '' : html`<p class="amount">${formatMoney(link.amountMinor, link.currency, 'en')}</p>`}
</header>`;
}

function field(name: keyof LinkFormValues, label: string, values: LinkFormValues, errors: LinkFormErrors, attributes: SafeHtml) {
  const error = errors[name];
  return html`<div class="field">
<label for="${name}">${label}</label>
<input id="${name}" name="${name}" value="${values[name]}" ${attributes} aria-invalid="${error ? 'true' : 'false'}"${error ? html` aria-describedby="${name}-error"` : ''}>
${error ? html`<p id="${name}-error" class="error">${error}</p>` : ''}
</div>`;
}

export function linkFormPage(link: StoredLink, merchantName: string, values: LinkFormValues, errors: LinkFormErrors, orderReference: string): string {
  const hasErrors = Object.keys(errors).length > 0;
  return page({
    title: `${link.name} · ${merchantName}`,
    body: html`<main class="link-page">
${linkHeader(link, merchantName)}
<form method="post" class="link-form" novalidate>
<input type="hidden" name="order" value="${orderReference}">
${hasErrors ? html`<p class="error" role="alert">Please correct the fields marked below.</p>` : ''}
${link.amountMinor === null ? field('amount', `Amount (${link.currency})`, values, errors, html`inputmode="decimal" required autocomplete="transaction-amount"`) : ''}
${field('firstname', 'First name', values, errors, html`required autocomplete="given-name"`)}
${field('lastname', 'Last name', values, errors, html`required autocomplete="family-name"`)}
${field('email', 'E-mail', values, errors, html`type="email" required autocomplete="email"`)}
${field('mobile', 'Mobile number (optional)', values, errors, html`type="tel" autocomplete="tel"`)}
<button type="submit">Continue to payment</button>
</form>
</main>`,
  });
}
