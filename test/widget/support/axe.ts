import { expect } from 'chai';

/**
 * Runs axe-core (WCAG 2.0-2.2 A and AA rules) on a subtree and fails with the violations listed. axe-core is a
 * classic script, so it is loaded once with a <script> tag from node_modules.
 */
interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
}
declare global {
  interface Window {
    axe?: { run(context: Element | Document, options: object): Promise<AxeResult> };
  }
}

let loading: Promise<void> | undefined;

function loadAxe(): Promise<void> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/node_modules/axe-core/axe.min.js';
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('axe-core could not be loaded'));
    document.head.append(script);
  });
  return loading;
}

export async function expectAccessible(context: Element | Document = document): Promise<void> {
  await loadAxe();
  const result = await window.axe!.run(context, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    // A test fixture is not a whole page: landmarks and page headings belong to the host page.
    rules: { region: { enabled: false }, 'page-has-heading-one': { enabled: false }, 'landmark-one-main': { enabled: false } },
  });
  const report = result.violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes.map((node) => `${JSON.stringify(node.target)} ${node.failureSummary ?? ''}`).join('\n  ')}`,
  );
  expect(report, report.join('\n')).to.deep.equal([]);
}
