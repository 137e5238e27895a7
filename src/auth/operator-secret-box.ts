import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import type { IbsEnvironment } from '../config/config.ts';
import type { OperatorSecretsKey } from '../config/operator-sign-in-config.ts';

/**
 * Local operators' TOTP secrets at rest (docs/operators.md, "The second factor at rest"): the
 * only place that encrypts or decrypts them. AES-256-GCM under OPERATOR_SECRETS_KEY, a fresh
 * random 12-byte IV each time, stored as `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url). The
 * header and the operator's id are authenticated with it: a sealed secret copied into another
 * operator's row, or under another key id, opens nowhere.
 *
 * A stored value without the `v1:` prefix was written in clear before secrets were encrypted; it
 * is read as it is and reported as not current, as is one sealed under an older key, so that the
 * caller stores it again under the current key at the next chance.
 */

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SANDBOX_KEY_ID = 'sandbox';

/** A stored secret that cannot be opened: a key missing from the setting, or an altered row. */
export class UnreadableOperatorSecret extends Error {
  override readonly name = 'UnreadableOperatorSecret';
}

export interface OpenedSecret {
  readonly secret: string;
  /** False when the stored value is in clear or under an older key: store it sealed again. */
  readonly current: boolean;
}

export interface OperatorSecretBox {
  seal(secret: string, operatorId: string): string;
  open(stored: string, operatorId: string): OpenedSecret;
}

/** The first key seals; every key opens what was sealed under its id. */
export function createOperatorSecretBox(keys: readonly OperatorSecretsKey[]): OperatorSecretBox {
  const [sealing] = keys;
  if (sealing === undefined) {
    throw new Error('OPERATOR_SECRETS_KEY names no key');
  }
  const byId = new Map(keys.map(({ id, key }) => [id, key]));
  return {
    seal: (secret, operatorId) => seal(sealing, secret, operatorId),
    open: (stored, operatorId) => open(byId, sealing.id, stored, operatorId),
  };
}

/**
 * The keys a process runs with: the configured ones, or in a sandbox that sets none, one derived
 * from its token signing secret (generated once and kept under DATA_DIR, so it lasts as long as
 * the sandbox's data does). Production always sets its own: the configuration refuses to start
 * without it, and this refuses too.
 */
export function operatorSecretsKeys(
  configured: readonly OperatorSecretsKey[] | undefined,
  sandbox: { ibsEnv: IbsEnvironment; tokenSigningSecret: string },
): readonly OperatorSecretsKey[] {
  if (configured !== undefined) {
    return configured;
  }
  if (sandbox.ibsEnv !== 'sandbox') {
    throw new Error('OPERATOR_SECRETS_KEY is required in production');
  }
  const derived = hkdfSync(
    'sha256',
    sandbox.tokenSigningSecret,
    '',
    'openibs operator secrets',
    32,
  );
  return [{ id: SANDBOX_KEY_ID, key: createSecretKey(Buffer.from(derived)) }];
}

function seal(sealing: OperatorSecretsKey, secret: string, operatorId: string): string {
  const header = `${VERSION}:${sealing.id}`;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, sealing.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(header, operatorId));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [header, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join(':');
}

function open(
  byId: ReadonlyMap<string, KeyObject>,
  sealingId: string,
  stored: string,
  operatorId: string,
): OpenedSecret {
  if (!stored.startsWith(`${VERSION}:`)) {
    return { secret: stored, current: false };
  }
  const [, keyId = '', iv = '', tag = '', ciphertext = '', ...rest] = stored.split(':');
  const key = byId.get(keyId);
  if (key === undefined) {
    throw new UnreadableOperatorSecret(
      `operator ${operatorId}'s TOTP secret is encrypted under key "${keyId}", which OPERATOR_SECRETS_KEY does not name`,
    );
  }
  try {
    if (rest.length > 0) {
      throw new Error('too many parts');
    }
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(additionalData(`${VERSION}:${keyId}`, operatorId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const secret = Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
    return { secret, current: keyId === sealingId };
  } catch {
    throw new UnreadableOperatorSecret(
      `operator ${operatorId}'s TOTP secret does not decrypt under key "${keyId}": the key is not the one it was encrypted with, or the row was altered`,
    );
  }
}

function additionalData(header: string, operatorId: string): Buffer {
  return Buffer.from(`${header}:${operatorId}`, 'utf8');
}
