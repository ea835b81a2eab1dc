import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What `npm start` runs, read from package.json's `start` script (`NAME=${NAME:-value} ... node ARGS...`): the
 * environment defaults it sets and node's arguments, so the tests and the benchmark start the server exactly as an
 * operator's `npm start` does.
 */
export function startCommand(root: string): { env: Record<string, string>; nodeArgs: string[] } {
  const script = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.split(/\s+/).filter(Boolean);
  const node = words.indexOf('node');
  if (node < 0) throw new Error(`package.json's start script does not run node: ${script}`);
  const env: Record<string, string> = {};
  for (const word of words.slice(0, node)) {
    const match = /^([A-Z_][A-Z0-9_]*)=(?:\$\{\1:-([^}]*)\}|(.*))$/.exec(word);
    if (!match) throw new Error(`package.json's start script: cannot read ${word}`);
    env[match[1]!] = match[2] ?? match[3] ?? '';
  }
  return { env, nodeArgs: words.slice(node + 1) };
}
