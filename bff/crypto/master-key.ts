import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/**
 * The master key seals merchants' private keys. Production must provide CHECKOUT_MASTER_KEY (config refuses
 * to start without it); in development and tests a key is generated once into the data folder and reused.
 */
export function loadMasterKey(config: Pick<Config, 'masterKey' | 'dataDir'>): Buffer {
  if (config.masterKey) return config.masterKey;
  const file = path.join(config.dataDir, 'master.key');
  try {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
