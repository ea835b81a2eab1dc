// The hosted pages' one script (served as /assets/pages.js under script-src 'self'). Chrome refuses `autofocus`
// in a cross-origin frame (and logs "Blocked autofocusing"), and ignores it on any page once the top page has moved
// focus; the 3-D Secure page opens inside the checkout's frame after the customer pressed Pay there, so the frame
// has focus. Framed, the page marks its field `data-autofocus` instead (no refused request, no console noise) and
// this script focuses it, as it does an `autofocus` field the browser skipped, unless something has focus.
const field = document.querySelector('[data-autofocus], [autofocus]');
if (field instanceof HTMLElement && (document.activeElement === null || document.activeElement === document.body)) field.focus();

// Inside a merchant's checkout frame (the server names the framing page's origin, from the frame's signed token),
// the page speaks the frame protocol's two messages a page without the checkout can send (widget/embed/protocol.ts):
// its height, so the frame follows it (a wrong code adds a line; at 320 px the buttons wrap), and Escape, which does
// not cross frames. Posted only to that origin, and only when this page really is framed.
const parentOrigin = document.body.dataset.parentOrigin;
if (parentOrigin && window.parent !== window) {
  const post = (message) => window.parent.postMessage({ protocol: 'ck-checkout/1', ...message }, parentOrigin);
  let lastHeight = -1;
  const reportHeight = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    post({ kind: 'resize', height });
  };
  new ResizeObserver(reportHeight).observe(document.body);
  reportHeight();
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !event.defaultPrevented) post({ kind: 'escape' });
  });
  // The checkout was refused in this frame (a wrong key, an origin the merchant did not allow): the embedding
  // page hears why, at once, rather than waiting for a checkout that will not start.
  const { refusedCode: code, refusedMessage: message } = document.body.dataset;
  if (code) post({ kind: 'refused', code, message: message ?? '' });
}

// The payment-link form posts and the server answers with a redirect: after a refusal the form's address names the
// fields to correct, never their values. What the customer typed comes back from this tab's sessionStorage (written
// on submit, read once on the refused form's address, then removed), so a refusal never empties the form.
const linkForm = document.querySelector('form.link-form');
if (linkForm instanceof HTMLFormElement) {
  const key = `ck-link-form:${location.pathname}`;
  const fields = ['firstname', 'lastname', 'email', 'mobile', 'amount'];
  const input = (name) => {
    const element = linkForm.elements.namedItem(name);
    return element instanceof HTMLInputElement ? element : undefined;
  };
  try {
    const saved = new URLSearchParams(location.search).has('invalid') ? JSON.parse(sessionStorage.getItem(key) ?? 'null') : null;
    for (const name of fields) {
      const element = input(name);
      if (element && element.value === '' && typeof saved?.[name] === 'string') element.value = saved[name];
    }
    sessionStorage.removeItem(key);
    linkForm.addEventListener('submit', () => {
      const typed = Object.fromEntries(fields.map((name) => [name, input(name)?.value ?? '']));
      sessionStorage.setItem(key, JSON.stringify(typed));
    });
  } catch {
    // Storage is blocked: the form still works, it only comes back empty after a refusal.
  }
}
