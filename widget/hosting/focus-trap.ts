/**
 * Keeps Tab and Shift+Tab inside this document, for the checkout shown as a modal dialog in a frame: the page
 * around the frame cannot see key presses inside it, so the frame wraps focus itself. Elements are found in the
 * flat tree (through open shadow roots and slots), in the order the browser tabs through them.
 */
export function trapFocus(doc: Document = document): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
    const stops = tabStops(doc.body);
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (!first || !last) return;
    const active = deepActiveElement(doc);
    if (event.shiftKey && (active === first || active === null || active === doc.body)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };
  doc.addEventListener('keydown', onKeyDown, true);
  return () => doc.removeEventListener('keydown', onKeyDown, true);
}

export function deepActiveElement(doc: Document = document): Element | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** The elements Tab stops at, in order: one per radio group, none disabled, hidden or inert. */
export function tabStops(root: Element, stops: HTMLElement[] = []): HTMLElement[] {
  if (root instanceof HTMLElement && (root.hidden || root.inert)) return stops;
  if (root instanceof HTMLElement && isTabStop(root)) stops.push(root);
  const children = root instanceof HTMLSlotElement ? root.assignedElements({ flatten: true }) : Array.from((root.shadowRoot ?? root).children);
  for (const child of children) tabStops(child, stops);
  return stops;
}

function isTabStop(element: HTMLElement): boolean {
  if (element.tabIndex < 0 || (element as HTMLButtonElement).disabled || element.getClientRects().length === 0) return false;
  if (getComputedStyle(element).visibility === 'hidden') return false;
  if (element instanceof HTMLInputElement && element.type === 'radio' && element.name) {
    // Tab enters a radio group once: at the checked radio, or at the first when none is checked.
    const group = Array.from((element.getRootNode() as ParentNode).querySelectorAll<HTMLInputElement>('input[type=radio]')).filter(
      (radio) => radio.name === element.name && radio.form === element.form && !radio.disabled,
    );
    const checked = group.find((radio) => radio.checked);
    return checked ? checked === element : group[0] === element;
  }
  return true;
}
