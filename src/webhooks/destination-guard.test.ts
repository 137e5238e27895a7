import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BlockedDestinationError,
  blockedReason,
  checkUrlForm,
  type DestinationPolicy,
  guardedLookup,
  resolveAndCheck,
} from './destination-guard.ts';

const PRODUCTION: DestinationPolicy = {
  requireHttps: true,
  allowLoopback: false,
  allowPrivate: false,
};
const SANDBOX: DestinationPolicy = {
  requireHttps: false,
  allowLoopback: true,
  allowPrivate: false,
};

describe('webhook destination guard', () => {
  it('blocks internal addresses in production', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '::1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      'fe80::1',
      'fd00:ec2::254',
      '0.0.0.0',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '224.0.0.1',
    ]) {
      assert.ok(blockedReason(address, PRODUCTION), `${address} is blocked`);
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '2001:4860:4860::8888', '41.58.0.1']) {
      assert.equal(blockedReason(address, PRODUCTION), undefined, `${address} is allowed`);
    }
  });

  it('lets sandbox reach loopback, never metadata or private networks', () => {
    assert.equal(blockedReason('127.0.0.1', SANDBOX), undefined);
    assert.equal(blockedReason('::1', SANDBOX), undefined);
    assert.ok(blockedReason('169.254.169.254', SANDBOX));
    assert.ok(blockedReason('10.0.0.1', SANDBOX));
    assert.equal(blockedReason('10.0.0.1', { ...SANDBOX, allowPrivate: true }), undefined);
  });

  it('checks the URL form: scheme, credentials and literal addresses', () => {
    assert.throws(() => checkUrlForm('http://example.com/hook', PRODUCTION), /https/);
    assert.throws(() => checkUrlForm('ftp://example.com/hook', SANDBOX), /http or https/);
    assert.throws(() => checkUrlForm('https://user:pw@example.com/', PRODUCTION), /credentials/);
    assert.throws(() => checkUrlForm('https://169.254.169.254/latest', PRODUCTION), /link-local/);
    assert.throws(() => checkUrlForm('https://[::1]:8443/', PRODUCTION), /loopback/);
    assert.throws(() => checkUrlForm('not a url', SANDBOX), BlockedDestinationError);
    assert.equal(
      checkUrlForm('https://hooks.example.com/x', PRODUCTION).hostname,
      'hooks.example.com',
    );
    assert.equal(checkUrlForm('http://127.0.0.1:9000/x', SANDBOX).port, '9000');
  });

  it('refuses a hostname that resolves to a blocked address', async () => {
    await assert.rejects(
      resolveAndCheck(new URL('https://localhost/hook'), PRODUCTION),
      /loopback/,
    );
    await resolveAndCheck(new URL('http://localhost/hook'), SANDBOX);
  });

  it('refuses at connection time too, so re-resolving to an internal address fails (rebinding)', async () => {
    const lookup = guardedLookup(PRODUCTION);
    const error = await new Promise<Error | null>((resolve) => {
      lookup('localhost', { all: false }, (failure) => resolve(failure));
    });
    assert.ok(error instanceof BlockedDestinationError);
    const allowed = await new Promise<string>((resolve, reject) => {
      guardedLookup(SANDBOX)('localhost', { all: false }, (failure, address) =>
        failure ? reject(failure) : resolve(String(address)),
      );
    });
    assert.match(allowed, /^(127\.0\.0\.1|::1)$/);
  });
});
