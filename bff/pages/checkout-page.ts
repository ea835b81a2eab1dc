import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { inlineScriptHashes } from '../security/csp.ts';
import type { SafeHtml } from './html.ts';

/**
 * HTML pages of the built widget (dist/widget: the checkout app `checkout.html`, the demo merchant page
 * `demo/index.html`), served with their settings filled into the JSON data block the page reads on start. The
 * block is data, never executed, so it is allowed under a strict CSP; `<` is escaped so no value can close the
 * element. In development the templates come from Vite instead (hot reload).
 */
const CONFIG_BLOCK = /<script type="application\/json" id="checkout-config">[\s\S]*?<\/script>/;
/** Preloads only a framed checkout needs (the build marks them, vite.config.ts `preloadFrameBridge`). */
const FRAME_ONLY_PRELOAD = /<link\b[^>]*\bdata-frame-only\b[^>]*>\s*/g;

export type TemplateSource = (page: string) => Promise<string | undefined>;

export function builtTemplates(distDir: string, cache: boolean): TemplateSource {
  const cached = new Map<string, string>();
  return async (page) => {
    const hit = cached.get(page);
    if (hit) return hit;
    try {
      const text = await readFile(path.join(distDir, page), 'utf8');
      if (cache) cached.set(page, text);
      return text;
    } catch {
      return undefined;
    }
  };
}

/**
 * A page to send: its HTML and the hashes of the inline scripts it runs, for its Content-Security-Policy. They are
 * taken from the template the build wrote, never from the filled-in page, so nothing a page is filled with can
 * ever be allowed to run.
 */
export interface RenderedPage {
  html: string;
  scriptHashes: string[];
}

export class WidgetPages {
  /** Per page, the template its hashes were taken from (development reads a new one on each request) and them. */
  readonly #hashes = new Map<string, { template: string; scriptHashes: string[] }>();

  constructor(private readonly templates: TemplateSource) {}

  /**
   * The page, or undefined when the widget has not been built. `header` (already escaped HTML) goes above the
   * page's content, with the hosted pages' stylesheet, for pages that introduce the checkout (payment links).
   */
  async render(page: string, config: Record<string, unknown>, header?: SafeHtml): Promise<RenderedPage | undefined> {
    const template = await this.templates(page);
    if (!template) return undefined;
    let known = this.#hashes.get(page);
    if (known?.template !== template) {
      known = { template, scriptHashes: inlineScriptHashes(template) };
      this.#hashes.set(page, known);
    }
    const { scriptHashes } = known;
    const json = JSON.stringify(config)
      .replace(/</g, '\\u003c')
      .replace(/\u2028|\u2029/g, (character) => `\\u${character.charCodeAt(0).toString(16)}`);
    let html = template.replace(CONFIG_BLOCK, () => `<script type="application/json" id="checkout-config">${json}</script>`);
    if (config['embedded'] !== true) html = html.replace(FRAME_ONLY_PRELOAD, '');
    if (header) {
      html = html
        .replace('</head>', () => '<link rel="stylesheet" href="/assets/pages.css">\n</head>')
        .replace(/<main([^>]*)>/, (open) => `${open}\n${header.text}`);
    }
    return { html, scriptHashes };
  }
}
