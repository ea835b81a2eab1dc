import { PGlite } from '@electric-sql/pglite';
import { execFile } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { openPgliteThread } from './pglite-thread.ts';
import { StorageUnavailableError, type Storage } from './storage.ts';

/**
 * One process at a time may open an embedded database: two PGlite instances on one folder each keep their own
 * copy of the database in memory and the last to write wins, silently losing the other's work. A lock file
 * beside the folder (`db.lock`, holding the owner's pid) refuses a second opener with a clear message; a lock
 * left by a process that no longer runs is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const file = `${dataDir}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      const descriptor = openSync(file, 'wx', 0o600);
      writeSync(descriptor, `${process.pid}\n`);
      closeSync(descriptor);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = lockHolder(file);
      if (holder !== undefined && isRunning(holder)) {
        throw new StorageUnavailableError(
          `The embedded database in ${dataDir} is in use by another process (pid ${holder}): stop it first, or use PostgreSQL (DATABASE_URL) to run several processes.`,
        );
      }
      unlinkSync(file);
    }
  }
  const release = () => {
    process.removeListener('exit', release);
    try {
      if (lockHolder(file) === process.pid) unlinkSync(file);
    } catch {
      // Already gone: nothing to release.
    }
  };
  process.once('exit', release);
  return release;
}

function lockHolder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A new embedded database is made by PGlite's `initdb`, which runs in the WebAssembly instance that made it and
 * whose memory that instance never gives back (about 900 MiB resident after a first start, against about 450 on a
 * restart). So a new folder is initialised by a short-lived child process, and this process opens it as on a restart.
 */
const INIT_SCRIPT = `const { PGlite } = await import(process.env.CHECKOUT_PGLITE_MODULE);
const db = await PGlite.create({ dataDir: process.env.CHECKOUT_PGLITE_INIT_DIR });
await db.close();`;

async function initialiseInChild(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', INIT_SCRIPT], {
    env: { ...process.env, CHECKOUT_PGLITE_MODULE: import.meta.resolve('@electric-sql/pglite'), CHECKOUT_PGLITE_INIT_DIR: dataDir },
    timeout: 120_000,
  });
}

/**
 * PostgreSQL's default 128 MB of shared buffers lives in the WebAssembly memory and is touched when the database
 * starts, so it is resident whatever the data: 16 MB holds a small shop's working set, and the operating system's
 * cache holds the files below it. Measured with 2,000 rows written and read: 357 MiB resident with the default,
 * 210 MiB with 16 MB.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * The embedded database runs in a worker thread of its own (`pglite-thread.ts`): every statement costs PostgreSQL's
 * parse, plan and execution plus PGlite's protocol parsing, which in this thread would hold up every request.
 */
export async function openPglite(dataDir: string | undefined): Promise<Storage> {
  let unlock = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  let storage: Storage;
  try {
    if (dataDir) await initialiseInChild(dataDir);
    storage = await openPgliteThread({ dataDir, startParams: START_PARAMS });
  } catch (error) {
    unlock();
    throw error;
  }
  return {
    ...storage,
    close: async () => {
      try {
        await storage.close();
      } finally {
        unlock();
      }
    },
  };
}
