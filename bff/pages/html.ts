/** Server-rendered pages: every interpolated value is escaped; no inline script or style (strict CSP). */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Tagged template: values are escaped unless they are already SafeHtml (or arrays of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** The hosted pages' icon (bff/pages/favicon.svg), served by the pages routes. */
export const FAVICON_PATH = '/assets/favicon.svg';
export const FAVICON_LINK = `<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`;

/**
 * `script`: load the hosted pages' script (bff/pages/pages.js), for pages with a field that asks for focus.
 * `parentOrigin`: the page shows inside a merchant's checkout frame; the script posts its height to that origin
 * (the frame protocol's `resize`, widget/embed/protocol.ts), so the frame grows and shrinks with it.
 */
export function page(options: {
  title: string;
  lang?: string;
  body: SafeHtml;
  script?: boolean;
  parentOrigin?: string | undefined;
  /** Why the checkout was not opened in the frame; the script tells the frame's parent (the protocol's `refused`). */
  refusal?: { code: string; message: string } | undefined;
}): string {
  return html`<!doctype html>
<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<link rel="stylesheet" href="/assets/pages.css">
${new SafeHtml(FAVICON_LINK)}
${options.script ? html`<script src="/assets/pages.js" defer></script>` : ''}
</head>
<body class="hosted"${options.parentOrigin ? html` data-parent-origin="${options.parentOrigin}"` : ''}${
    options.refusal ? html` data-refused-code="${options.refusal.code}" data-refused-message="${options.refusal.message}"` : ''
  }>
${options.body}
</body>
</html>
`.text;
}
