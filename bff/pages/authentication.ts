import { merchantMark, type Brand } from './brand.ts';
import { html, page } from './html.ts';
import { ENGLISH, type PageLocale } from './i18n.ts';

/** The sandbox issuer's 3-D Secure page: shows the one-time code (sandbox only) and asks for it. */
export function authenticationPage(view: {
  merchantName: string;
  amountMinor: number;
  currency: string;
  instrument: string | null;
  oneTimeCode: string;
  action: string;
  error?: string | undefined;
  locale?: PageLocale;
  /** The merchant page framing the checkout, which hears this page's height (see `page`). */
  parentOrigin?: string | undefined;
}): string {
  const locale = view.locale ?? ENGLISH;
  const t = locale.t.authentication;
  return page({
    title: t.title,
    lang: locale.tag,
    script: true,
    parentOrigin: view.parentOrigin,
    body: html`<main class="issuer">
<p class="merchant">${t.bank}</p>
<h1>${t.title}</h1>
<p>${t.paying} <strong>${locale.money(view.amountMinor, view.currency)}</strong> ${t.to} <strong>${view.merchantName}</strong>${view.instrument ? html` ${t.with} ${view.instrument}` : ''}.</p>
<p class="notice">${t.sandboxCode} <strong class="code" data-testid="otp">${view.oneTimeCode}</strong>.</p>
<form method="post" action="${view.action}">
<label for="code">${t.code}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" aria-describedby="${view.error ? 'code-error' : ''}" aria-invalid="${view.error ? 'true' : 'false'}" ${view.parentOrigin ? 'data-autofocus' : 'autofocus'}>
${view.error ? html`<p id="code-error" class="error" role="alert">${view.error}</p>` : ''}
<div class="actions">
<button type="submit" name="action" value="approve">${t.approve}</button>
<button type="submit" name="action" value="fail" class="secondary" formnovalidate>${t.fail}</button>
</div>
</form>
</main>`,
  });
}

export function messagePage(
  title: string,
  message: string,
  link?: { href: string; label: string },
  lang?: string,
  parentOrigin?: string,
  brand?: Brand,
): string {
  return page({
    title,
    lang,
    script: parentOrigin !== undefined,
    parentOrigin,
    body: html`<main>${brand ? merchantMark(brand) : ''}<h1>${title}</h1><p class="notice">${message}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}</main>`,
  });
}

/**
 * The frame's answer when the checkout cannot open there (a wrong key, an origin the merchant did not allow): the
 * customer reads that it is unavailable, and the embedding page hears the code and the reason (`refused`).
 */
export function refusalPage(locale: PageLocale, refusal: { code: string; message: string }, parentOrigin: string | undefined): string {
  const [title, message] = locale.t.checkoutRefused;
  return page({
    title,
    lang: locale.tag,
    script: parentOrigin !== undefined,
    parentOrigin,
    refusal,
    body: html`<main><h1>${title}</h1><p class="notice">${message}</p></main>`,
  });
}

/** A message of the catalog (title and text) as a page in the customer's language, with a way on when there is one. */
export function say(
  [title, message]: readonly [string, string],
  locale: PageLocale,
  link?: { href: string; label: string },
  parentOrigin?: string,
  brand?: Brand,
): string {
  return messagePage(title, message, link, locale.tag, parentOrigin, brand);
}
