import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../config.ts';

/**
 * The master key seals merchants' private keys. Production must provide CHECKOUT_MASTER_KEY (config refuses
 * to start without it); in development and tests a key is generated once into the data folder and reused.
 */
export function loadMasterKey(config: Pick<Config, 'masterKey' | 'dataDir'>): Buffer {
  if (config.masterKey) return config.masterKey;
  const file = path.join(config.dataDir, 'master.key');
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new ConfigError(`Invalid configuration: cannot read the master key ${file} (${code ?? 'unreadable'}).`);
  }
  if (text !== undefined) {
    // A damaged key file must stop the process: a new key would orphan every private key sealed with the old one.
    if (!/^[A-Za-z0-9+/]{43}=?$/.test(text)) {
      throw new ConfigError(`Invalid configuration: ${file} does not hold a 32-byte base64 master key; restore it from a backup or set CHECKOUT_MASTER_KEY.`);
    }
    return Buffer.from(text, 'base64');
  }
  try {
    mkdirSync(config.dataDir, { recursive: true });
    const key = randomBytes(32);
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`Invalid configuration: cannot create the master key in CHECKOUT_DATA_DIR ${config.dataDir} (${code ?? 'failed'}).`);
  }
}
