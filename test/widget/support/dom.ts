import { sendKeys } from '@web/test-runner-commands';

/** Helpers that look at the page the way a user does: through shadow roots, by label and by role. */

export function shadow(element: Element): ShadowRoot {
  if (!element.shadowRoot) throw new Error(`${element.localName} has no shadow root`);
  return element.shadowRoot;
}

/** Finds the first element matching `selector`, looking inside every open shadow root. */
export function deepQuery<T extends Element = HTMLElement>(root: ParentNode, selector: string): T | null {
  const direct = root.querySelector<T>(selector);
  if (direct) return direct;
  for (const element of root.querySelectorAll('*')) {
    if (element.shadowRoot) {
      const found = deepQuery<T>(element.shadowRoot, selector);
      if (found) return found;
    }
  }
  return null;
}

export function deepQueryAll<T extends Element = HTMLElement>(root: ParentNode, selector: string): T[] {
  const found = [...root.querySelectorAll<T>(selector)];
  for (const element of root.querySelectorAll('*')) {
    if (element.shadowRoot) found.push(...deepQueryAll<T>(element.shadowRoot, selector));
  }
  return found;
}

/** The visible text of a subtree, shadow roots included, with whitespace collapsed. */
export function deepText(root: Node): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node instanceof Element && node.shadowRoot) {
      walk(node.shadowRoot);
      return;
    }
    if (node instanceof HTMLSlotElement) {
      for (const assigned of node.assignedNodes({ flatten: true })) walk(assigned);
      return;
    }
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
    if (node instanceof HTMLStyleElement) return;
    for (const child of node.childNodes) walk(child);
  };
  walk(root);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** The input whose <label> says `label` (as a screen reader reads it: what is aria-hidden, such as a brand mark, is not said). */
export function inputByLabel(root: ParentNode, label: string): HTMLInputElement {
  for (const element of deepQueryAll<HTMLLabelElement>(root, 'label')) {
    const said = element.cloneNode(true) as HTMLLabelElement;
    for (const hidden of said.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    if (said.textContent?.replace(/\s+/g, ' ').trim().startsWith(label)) {
      const input = element.htmlFor ? (element.getRootNode() as ShadowRoot).getElementById(element.htmlFor) : element.querySelector('input');
      if (input instanceof HTMLInputElement) return input;
    }
  }
  throw new Error(`No input labelled "${label}"`);
}

export function buttonByText(root: ParentNode, text: string | RegExp): HTMLButtonElement {
  const matches = (value: string) => (typeof text === 'string' ? value.includes(text) : text.test(value));
  const button = deepQueryAll<HTMLButtonElement>(root, 'button').find(
    (candidate) => matches(candidate.textContent?.replace(/\s+/g, ' ').trim() ?? '') || matches(candidate.getAttribute('aria-label') ?? ''),
  );
  if (!button) throw new Error(`No button "${text}"`);
  return button;
}

/** The element that has focus, followed through shadow roots. */
export function activeElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Clicks the way a user does: focus moves to the control, then it is activated with the keyboard's Enter. */
export async function typeInto(input: HTMLInputElement, text: string): Promise<void> {
  input.focus();
  await sendKeys({ type: text });
}

export async function press(key: string): Promise<void> {
  await sendKeys({ press: key });
}

/** Waits until `check` passes (returns truthy without throwing), or fails with its last error. */
export async function waitFor<T>(check: () => T, timeout = 5000): Promise<NonNullable<T>> {
  const started = performance.now();
  let lastError: unknown;
  for (;;) {
    try {
      const value = check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (performance.now() - started > timeout) {
      throw lastError instanceof Error ? lastError : new Error(`waitFor timed out after ${timeout} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
