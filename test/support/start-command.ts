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

/**
 * How a test or a script starts the server: the build as `npm start` runs it (`compiled`), or the sources through
 * tsx, so a test never waits for a compile.
 */
export function serverCommand(root: string, compiled: boolean): { args: string[]; env: Record<string, string> } {
  if (!compiled) return { args: ['--import', 'tsx', 'bff/server.ts'], env: {} };
  const { env, nodeArgs } = startCommand(root);
  return { args: nodeArgs, env };
}

/**
 * Whether what the server wrote to stdout holds its whole start-up banner. The banner is one write, ending with a
 * blank line after its API docs line, or after the sandbox merchant's keys when it made one; log lines (at
 * LOG_LEVEL=info, from other workers) may follow it in the same chunk.
 */
export function bannerComplete(stdout: string): boolean {
  if (!stdout.includes('API docs:')) return false;
  return (stdout.includes('A sandbox merchant was created') ? /encryptionKey:\s+\S+\n\n/ : /API docs: \S+\n\n/).test(stdout);
}
