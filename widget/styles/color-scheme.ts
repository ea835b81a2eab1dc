/**
 * The `color-scheme` of a checkout given `theme` (as `ck-checkout` applies it: `dark`, `auto` follows the system,
 * anything else, absent included, is light: a merchant's page is light unless the merchant says otherwise). The checkout's own page, the frame's root and the iframe element on the merchant's page all
 * take it: when the frame's and the iframe element's used colour schemes differ, the browser paints the frame with
 * an opaque canvas instead of letting the page show around the checkout (CSS Color Adjustment, "color-scheme" on
 * embedded documents).
 */
export function colorSchemeFor(theme: string | undefined): 'light' | 'dark' | 'light dark' {
  return theme === 'dark' ? 'dark' : theme === 'auto' ? 'light dark' : 'light';
}
