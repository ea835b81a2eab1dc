import { formatMoney } from '../../shared/money.ts';
import { html, page } from './html.ts';

/** The sandbox issuer's 3-D Secure page: shows the one-time code (sandbox only) and asks for it. */
export function authenticationPage(view: {
  merchantName: string;
  amountMinor: number;
  currency: string;
  instrument: string | null;
  oneTimeCode: string;
  action: string;
  error?: string | undefined;
}): string {
  return page({
    title: 'Authenticate your payment',
    script: true,
    body: html`<main class="issuer">
<p class="merchant">Sandbox Bank · 3-D Secure</p>
<h1>Authenticate your payment</h1>
<p>Paying <strong>${formatMoney(view.amountMinor, view.currency, 'en')}</strong> to <strong>${view.merchantName}</strong>${view.instrument ? html` with ${view.instrument}` : ''}.</p>
<p class="notice">This is the sandbox. Your one-time code is <strong class="code" data-testid="otp">${view.oneTimeCode}</strong>.</p>
<form method="post" action="${view.action}">
<label for="code">One-time code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" aria-describedby="${view.error ? 'code-error' : ''}" aria-invalid="${view.error ? 'true' : 'false'}" autofocus>
${view.error ? html`<p id="code-error" class="error" role="alert">${view.error}</p>` : ''}
<div class="actions">
<button type="submit" name="action" value="approve">Authenticate</button>
<button type="submit" name="action" value="fail" class="secondary" formnovalidate>Fail authentication</button>
</div>
</form>
</main>`,
  });
}

export function messagePage(title: string, message: string, link?: { href: string; label: string }): string {
  return page({
    title,
    body: html`<main><h1>${title}</h1><p class="notice">${message}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}</main>`,
  });
}
