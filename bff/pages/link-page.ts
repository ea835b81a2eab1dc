import type { StoredLink } from '../repositories/links.ts';
import { merchantMark, type Brand } from './brand.ts';
import { html, page, type SafeHtml } from './html.ts';
import type { PageLocale } from './i18n.ts';

/**
 * The payment-link page: the link's name, description and background image, then a plain form for the
 * customer's details (and the amount, when the link leaves it to the customer). It works without script, before
 * the checkout loads and under the strict CSP; the hosted pages' script only brings back what the customer typed
 * after the server refused a field (kept in the tab's sessionStorage, never in an address). The form posts, so the customer's name, e-mail and phone never
 * appear in an address (browser history, server logs, the Referer header); the answer sends the browser on to the
 * order's own address, or back to the form's address naming the fields in error (never their values).
 * `orderReference` is the order this form starts: sent twice, it finds the same order.
 */
export type LinkFormValues = { firstname: string; lastname: string; email: string; mobile: string; amount: string };
export type LinkFormErrors = Partial<Record<keyof LinkFormValues, string>>;

/**
 * A subscription's plan under the link's header: its words (shared/plan.ts, as the widget says it), and once the
 * customer subscribed, the link that cancels it (a signed token: the order's page is the customer's own).
 */
export type PlanView = { words: string; cancelHref?: string | undefined };

export function linkHeader(link: StoredLink, merchant: Brand, locale: PageLocale, plan?: PlanView): SafeHtml {
  return html`<header class="link-header">
${link.backgroundImage ? html`<img class="link-background" src="${link.backgroundImage}" alt="">` : ''}
${merchantMark(merchant)}
<h1>${link.name}</h1>
<p>${link.description}</p>
${link.amountMinor === null ? '' : html`<p class="amount">${locale.money(link.amountMinor, link.currency)}</p>`}
${plan ? html`<p class="plan" data-testid="plan"><strong>${locale.t.subscription.plan}:</strong> ${plan.words}</p>` : ''}
${plan?.cancelHref ? html`<p class="plan-cancel">${locale.t.subscription.manage} <a href="${plan.cancelHref}" data-testid="cancel-subscription">${locale.t.subscription.cancelLink}</a></p>` : ''}
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

/**
 * The browser checks what it can before the form is sent (required fields, an e-mail address, the shapes below),
 * so the common mistakes never leave the page; the server checks everything again. Patterns are matched with the
 * `v` flag, hence the escapes inside classes.
 */
const AMOUNT_PATTERN = '\\s*[0-9][0-9\\s,.]*';
const MOBILE_PATTERN = '\\+?[0-9 \\(\\)\\-]{7,20}';

export function linkFormPage(link: StoredLink, merchant: Brand, values: LinkFormValues, errors: LinkFormErrors, orderReference: string, locale: PageLocale, plan?: PlanView): string {
  const { t } = locale;
  const hasErrors = Object.keys(errors).length > 0;
  return page({
    title: `${link.name} · ${merchant.name}`,
    lang: locale.tag,
    script: true,
    body: html`<main class="link-page">
${linkHeader(link, merchant, locale, plan)}
<form method="post" class="link-form">
<input type="hidden" name="order" value="${orderReference}">
${hasErrors ? html`<p class="error" role="alert">${t.correctFields}</p>` : ''}
${link.amountMinor === null ? field('amount', t.amountLabel(link.currency), values, errors, html`inputmode="decimal" required maxlength="20" pattern="${AMOUNT_PATTERN}" title="${t.errors.amount(link.currency)}" autocomplete="transaction-amount"`) : ''}
${field('firstname', t.firstName, values, errors, html`required maxlength="100" autocomplete="given-name"`)}
${field('lastname', t.lastName, values, errors, html`required maxlength="100" autocomplete="family-name"`)}
${field('email', t.email, values, errors, html`type="email" required maxlength="200" autocomplete="email"`)}
${field('mobile', t.mobile, values, errors, html`type="tel" maxlength="20" pattern="${MOBILE_PATTERN}" title="${t.errors.mobile}" autocomplete="tel"`)}
<button type="submit">${t.continue}</button>
</form>
</main>`,
  });
}
