import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config, Secrets } from '../config/config.ts';
import { newSecretToken } from '../shared/ids.ts';

const SECRETS_FILE = 'sandbox-secrets.json';

/**
 * Production takes its secrets from the environment (config refuses to start without them).
 * Sandbox generates any that are missing on first start and keeps them under DATA_DIR, so
 * tokens and the admin token survive restarts.
 */
export async function resolveSecrets(config: Config): Promise<Secrets> {
  if (config.adminToken !== undefined && config.tokenSigningSecret !== undefined) {
    return { adminToken: config.adminToken, tokenSigningSecret: config.tokenSigningSecret };
  }
  if (config.ibsEnv !== 'sandbox') {
    throw new Error('production secrets must come from the environment');
  }
  const stored = await readStoredSecrets(config.dataDir);
  const secrets: Secrets = {
    adminToken: config.adminToken ?? stored?.adminToken ?? newSecretToken(32),
    tokenSigningSecret:
      config.tokenSigningSecret ?? stored?.tokenSigningSecret ?? newSecretToken(48),
  };
  if (
    stored?.adminToken !== secrets.adminToken ||
    stored?.tokenSigningSecret !== secrets.tokenSigningSecret
  ) {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(path.join(config.dataDir, SECRETS_FILE), JSON.stringify(secrets, null, 2), {
      mode: 0o600,
    });
  }
  return secrets;
}

export async function readStoredSecrets(dataDir: string): Promise<Secrets | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dataDir, SECRETS_FILE), 'utf8')) as Secrets;
  } catch {
    return undefined;
  }
}
