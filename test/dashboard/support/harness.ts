import type { DashApp } from '../../../dashboard/components/app.ts';
import '../../../dashboard/components/app.ts';
import type { ReportsSource } from '../../../dashboard/api/reports.ts';
import type { SessionApi } from '../../../dashboard/api/session.ts';

/** Replaces `fetch`: records every request and answers with what the test gives. */
export class FetchStub {
  readonly requests: { url: URL; init: RequestInit | undefined }[] = [];
  #original = window.fetch;
  constructor(private answer: (url: URL) => { status?: number; body: unknown }) {
    window.fetch = async (input, init) => {
      const url = new URL(String(input), location.href);
      this.requests.push({ url, init });
      const { status = 200, body } = this.answer(url);
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    };
  }
  respond(answer: (url: URL) => { status?: number; body: unknown }): void {
    this.answer = answer;
  }
  get last(): URL {
    return this.requests.at(-1)!.url;
  }
  restore(): void {
    window.fetch = this.#original;
  }
}

export async function waitFor<T>(probe: () => T | undefined | null | false, what: string, timeout = 5000): Promise<T> {
  const end = performance.now() + timeout;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Mounts the dashboard at `hash` with a session and reports stand-in, in a language and theme. */
export async function mountApp(options: { hash: string; session: SessionApi; reports?: ReportsSource; language?: 'en' | 'fr'; theme?: 'light' | 'dark' }): Promise<DashApp> {
  localStorage.clear();
  if (options.language) localStorage.setItem('dashboard.language', options.language);
  localStorage.setItem('dashboard.theme', options.theme ?? 'light');
  history.replaceState(null, '', options.hash);
  const app = document.createElement('dash-app');
  app.session = options.session;
  if (options.reports) app.reports = options.reports;
  document.body.append(app);
  return app;
}

/** The shadow root of the screen `tag` once it is shown. */
export function screenOf(app: DashApp, tag: string): Promise<ShadowRoot> {
  return waitFor(() => app.shadowRoot?.querySelector(tag)?.shadowRoot, tag);
}

export function unmount(app: DashApp | undefined): void {
  app?.remove();
  history.replaceState(null, '', '#');
  document.documentElement.style.colorScheme = '';
}

/** Visible text of a subtree, shadow roots included, whitespace collapsed. */
export function textOf(root: Node): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
    if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
    node.childNodes.forEach(walk);
  };
  walk(root);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
