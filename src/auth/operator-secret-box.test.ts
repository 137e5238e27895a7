import assert from 'node:assert/strict';
import { createSecretKey, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { OperatorSecretsKey } from '../config/operator-sign-in-config.ts';
import {
  createOperatorSecretBox,
  operatorSecretsKeys,
  UnreadableOperatorSecret,
} from './operator-secret-box.ts';
import { newTotpSecret } from './operator-totp.ts';

const keyNamed = (id: string): OperatorSecretsKey => ({
  id,
  key: createSecretKey(randomBytes(32)),
});

/** The stored text with one part replaced (0 version, 1 key id, 2 IV, 3 tag, 4 ciphertext). */
function withPart(sealed: string, index: number, change: (part: string) => string): string {
  const parts = sealed.split(':');
  parts[index] = change(parts[index] ?? '');
  return parts.join(':');
}

/** One base64url character changed: one bit or more of the bytes behind it. */
const flipFirst = (part: string) => (part.startsWith('A') ? 'B' : 'A') + part.slice(1);

describe('operator secrets at rest', () => {
  it('seals and opens again; the stored text is versioned, names its key, never the secret', () => {
    const box = createOperatorSecretBox([keyNamed('k2'), keyNamed('k1')]);
    const secret = newTotpSecret();
    const sealed = box.seal(secret, 'op_1');
    assert.match(sealed, /^v1:k2:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    assert.ok(!sealed.includes(secret));
    assert.deepEqual(box.open(sealed, 'op_1'), { secret, current: true });
    // A fresh IV each time: the same secret never seals to the same text.
    assert.notEqual(box.seal(secret, 'op_1'), sealed);
  });

  it('a secret sealed under an older key opens, and is reported for sealing again', () => {
    const older = keyNamed('k1');
    const sealed = createOperatorSecretBox([older]).seal('JBSWY3DPEHPK3PXP', 'op_1');
    const rotated = createOperatorSecretBox([keyNamed('k2'), older]);
    assert.deepEqual(rotated.open(sealed, 'op_1'), {
      secret: 'JBSWY3DPEHPK3PXP',
      current: false,
    });
  });

  it('a value stored in clear before encryption is read as it is, and is not current', () => {
    const box = createOperatorSecretBox([keyNamed('k1')]);
    assert.deepEqual(box.open('JBSWY3DPEHPK3PXP', 'op_1'), {
      secret: 'JBSWY3DPEHPK3PXP',
      current: false,
    });
  });

  it('refuses a wrong key, an unknown key id, another row and any altered part, clearly', () => {
    const key = keyNamed('k1');
    const box = createOperatorSecretBox([key]);
    const secret = newTotpSecret();
    const sealed = box.seal(secret, 'op_1');
    const sameIdOtherKey = createOperatorSecretBox([keyNamed('k1')]);
    const refusals: [() => unknown, RegExp][] = [
      [() => sameIdOtherKey.open(sealed, 'op_1'), /does not decrypt under key "k1"/],
      [() => createOperatorSecretBox([keyNamed('k9')]).open(sealed, 'op_1'), /key "k1"/],
      [() => box.open(sealed, 'op_2'), /does not decrypt/],
      [() => box.open(withPart(sealed, 2, flipFirst), 'op_1'), /does not decrypt/],
      [() => box.open(withPart(sealed, 3, flipFirst), 'op_1'), /does not decrypt/],
      [() => box.open(withPart(sealed, 4, flipFirst), 'op_1'), /does not decrypt/],
      [
        () =>
          box.open(
            withPart(sealed, 3, (tag) => tag.slice(0, 11)),
            'op_1',
          ),
        /does not decrypt/,
      ],
      [() => box.open(`${sealed}:extra`, 'op_1'), /does not decrypt/],
      [() => box.open('v1:k1:', 'op_1'), /does not decrypt/],
    ];
    for (const [open, message] of refusals) {
      assert.throws(open, (error: Error) => {
        assert.ok(error instanceof UnreadableOperatorSecret);
        assert.match(error.message, message);
        assert.ok(!error.message.includes(secret) && !error.message.includes(sealed));
        return true;
      });
    }
  });

  it('the sandbox derives one lasting key from its signing secret; production never does', () => {
    const sandbox = { ibsEnv: 'sandbox', tokenSigningSecret: 's'.repeat(48) } as const;
    const sealed = createOperatorSecretBox(operatorSecretsKeys(undefined, sandbox)).seal(
      'JBSWY3DPEHPK3PXP',
      'op_1',
    );
    // Another process of the same sandbox (the same signing secret) opens it.
    const again = createOperatorSecretBox(operatorSecretsKeys(undefined, sandbox));
    assert.equal(again.open(sealed, 'op_1').secret, 'JBSWY3DPEHPK3PXP');
    assert.match(sealed, /^v1:sandbox:/);
    const configured = [keyNamed('k1')];
    assert.equal(operatorSecretsKeys(configured, sandbox), configured);
    assert.throws(
      () => operatorSecretsKeys(undefined, { ...sandbox, ibsEnv: 'production' }),
      /OPERATOR_SECRETS_KEY is required in production/,
    );
  });
});
