// The hosted pages' one script (served as /assets/pages.js under script-src 'self'). Chrome ignores `autofocus`
// in a frame, and on any page once the top page has moved focus; the 3-D Secure page opens inside the checkout's
// frame after the customer pressed Pay there. The field that asks for focus gets it, unless something has it.
const field = document.querySelector('[autofocus]');
if (field instanceof HTMLElement && (document.activeElement === null || document.activeElement === document.body)) field.focus();
