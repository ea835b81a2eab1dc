import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Whether `npm start` must build the widget before serving it: when the build was never made, or when any file the
 * build reads (widget/, shared/, vite.config.ts) changed after it. A stale bundle would serve old code, and its
 * embed.js would no longer match the integrity hash in the README.
 */
export function widgetBuildIsStale(outDir: string, sources: readonly string[]): boolean {
  let builtAt: number;
  try {
    builtAt = statSync(path.join(outDir, 'checkout.html')).mtimeMs;
  } catch {
    return true;
  }
  return sources.some((source) => newestChange(source) > builtAt);
}

/**
 * The latest modification time of a file, or of any file under a folder (0 when it does not exist). Folders' own
 * times are left out: they change whenever anything (an editor's backup, a test run) adds a file there.
 */
function newestChange(source: string): number {
  let stats;
  try {
    stats = statSync(source);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestChange(path.join(source, entry.name)));
  }
  return newest;
}
