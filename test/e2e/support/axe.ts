import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './server.ts';

/**
 * axe-core (WCAG 2.0-2.2 A and AA rules) on a real page. The script is evaluated through the browser's debugging
 * protocol, which the page's Content-Security-Policy does not govern, so the page under test keeps its own policy.
 */
const AXE_SOURCE = readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}
type AxeWindow = Window & { axe: { run(context: unknown, options: object): Promise<{ violations: AxeViolation[] }> } };

/** The violations on the page (or inside `include`, CSS selectors), one line each: an empty list passes. */
export async function axeViolations(page: Page, options: { include?: string[]; rules?: string[] } = {}): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async ({ include, rules }) => {
    const context = include ? { include: include.map((selector) => [selector]) } : document;
    const runOnly = rules ? { type: 'rule', values: rules } : { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] };
    const result = await (window as unknown as AxeWindow).axe.run(context, { runOnly });
    return result.violations.flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(node.target)} ${node.failureSummary ?? ''}`),
    );
  }, options);
}
