import assert from 'node:assert/strict';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach, describe, it, mock } from 'node:test';
import { adminHeaders, createClient } from '../../test/factories.ts';
import { buildTestApp } from '../../test/harness.ts';
import { loadConfig } from '../config/config.ts';
import {
  BlockedDestinationError,
  blockedReason,
  checkUrlForm,
  type DestinationPolicy,
  destinationPolicy,
  guardedLookup,
  resolveAndCheck,
} from './destination-guard.ts';
import { checkDestination } from './webhook-service.ts';

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

describe('IPv6 forms that embed IPv4 or special ranges', () => {
  const refusedEverywhere = (addresses: string[]) => {
    for (const address of addresses) {
      for (const policy of [PRODUCTION, SANDBOX, { ...SANDBOX, allowPrivate: true }]) {
        assert.ok(
          blockedReason(address, policy),
          `${address} is blocked (${JSON.stringify(policy)})`,
        );
      }
    }
  };

  it('refuses IPv4-mapped addresses of internal IPv4 in every spelling', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:7F00:0001',
      '0:0:0:0:0:ffff:7f00:1',
      '0000:0000:0000:0000:0000:ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:a00:1',
      '::ffff:c0a8:101',
      '::ffff:a9fe:a9fe',
      '::ffff:0:0',
    ]) {
      assert.ok(blockedReason(address, PRODUCTION), `${address} is blocked`);
    }
    // Link-local and reserved stay blocked in sandbox too, whatever the spelling.
    refusedEverywhere(['::ffff:a9fe:a9fe', '::ffff:169.254.169.254', '::ffff:0.0.0.0']);
    assert.ok(blockedReason('::ffff:a00:1', SANDBOX), 'mapped private address in sandbox');
  });

  it('gives a mapped address the policy of its IPv4, which is the same destination', () => {
    assert.equal(blockedReason('::ffff:8.8.8.8', PRODUCTION), undefined);
    assert.equal(blockedReason('::ffff:808:808', PRODUCTION), undefined);
    assert.equal(blockedReason('::ffff:7f00:1', SANDBOX), undefined);
    assert.match(String(blockedReason('::ffff:7f00:1', PRODUCTION)), /loopback/);
  });

  it('refuses NAT64 (64:ff9b::/96) of a loopback, private or link-local IPv4, in every policy', () => {
    refusedEverywhere([
      '64:ff9b::127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::10.1.2.3',
      '64:ff9b::ac10:1',
      '64:ff9b::192.168.1.1',
      '64:ff9b::100.64.0.1',
      '64:ff9b::169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::0.0.0.0',
    ]);
    // A DNS64 resolver synthesises 64:ff9b::/96 for public IPv4-only hosts: those stay reachable.
    assert.equal(blockedReason('64:ff9b::8.8.8.8', PRODUCTION), undefined);
    assert.equal(blockedReason('64:ff9b::2910:a01', PRODUCTION), undefined);
  });

  it('refuses local-use NAT64 (64:ff9b:1::/48) whatever it embeds', () => {
    refusedEverywhere(['64:ff9b:1::8.8.8.8', '64:ff9b:1::a00:1', '64:ff9b:1:ffff::1']);
  });

  it('refuses IPv4-compatible (::a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d) addresses', () => {
    refusedEverywhere(['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::8.8.8.8', '::0.0.0.2']);
    refusedEverywhere(['::ffff:0:7f00:1', '::ffff:0:8.8.8.8']);
  });

  it('refuses 6to4 (2002::/16) and Teredo (2001::/32), but not the rest of 2001::/16', () => {
    refusedEverywhere(['2002:7f00:1::1', '2002:a00:1::', '2002:808:808::1']);
    refusedEverywhere(['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2']);
    assert.equal(blockedReason('2001:4860:4860::8888', PRODUCTION), undefined);
    assert.equal(blockedReason('2a00:1450:4009:81f::200e', PRODUCTION), undefined);
  });

  it('refuses site-local (fec0::/10), discard-only and documentation ranges', () => {
    refusedEverywhere(['fec0::1', 'feff:ffff::1', '100::1', '2001:db8::1']);
  });

  it('keeps ::1 a loopback address for the sandbox, not an IPv4-compatible one', () => {
    assert.equal(blockedReason('::1', SANDBOX), undefined);
    assert.equal(blockedReason('0:0:0:0:0:0:0:1', SANDBOX), undefined);
    assert.match(String(blockedReason('::1', PRODUCTION)), /loopback/);
  });

  it('refuses these forms as URL hosts, which the URL parser rewrites to hex', () => {
    for (const url of [
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://[64:ff9b::169.254.169.254]/latest',
      'https://[::127.0.0.1]/hook',
      'https://[2002:7f00:1::]/hook',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
      'https://[fec0::1]/hook',
      // WHATWG URL reads these as IPv4 127.0.0.1.
      'https://2130706433/hook',
      'https://0x7f.1/hook',
    ]) {
      assert.throws(() => checkUrlForm(url, PRODUCTION), BlockedDestinationError, url);
    }
  });
});

describe('checking a URL when it is set: DNS in production only', () => {
  const PRODUCTION_ENV = {
    IBS_ENV: 'production',
    DATABASE_URL: 'postgres://db.internal/openibs',
    ADMIN_TOKEN: 'a'.repeat(40),
    TOKEN_SIGNING_SECRET: 'b'.repeat(40),
    OPERATOR_SECRETS_KEY: 'c'.repeat(64),
    PUBLIC_BASE_URL: 'https://api.bank.example/',
    INSTITUTION_CODE: '090286',
  };

  /** Replaces DNS for the module under test (its named import sees the replacement). */
  function fakeDns(answer: string | Error) {
    const lookup = mock.method(dns, 'lookup', ((
      _host: string,
      _options: unknown,
      callback: (error: Error | null, addresses: dns.LookupAddress[]) => void,
    ) => {
      if (answer instanceof Error) {
        callback(answer, []);
      } else {
        callback(null, [{ address: answer, family: answer.includes(':') ? 6 : 4 }]);
      }
    }) as unknown as typeof dns.lookup);
    syncBuiltinESMExports();
    return lookup;
  }

  afterEach(() => {
    mock.restoreAll();
    syncBuiltinESMExports();
  });

  it('does not resolve in sandbox, so a machine without network accepts public URLs', async () => {
    const lookup = fakeDns(
      Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' }),
    );
    const policy = destinationPolicy(loadConfig({}));
    assert.equal(policy.resolveOnWrite, false);
    await checkDestination('https://hooks.example.com/x', policy);
    await checkDestination('http://localhost:9000/x', policy);
    assert.equal(lookup.mock.callCount(), 0);
  });

  it('still checks the form in sandbox: scheme, credentials, literal addresses, metadata names', async () => {
    const lookup = fakeDns(new Error('no DNS'));
    const policy = destinationPolicy(loadConfig({}));
    for (const url of [
      'ftp://hooks.example.com/x',
      'https://user:pw@hooks.example.com/x',
      'http://169.254.169.254/latest',
      'http://[64:ff9b::a9fe:a9fe]/latest',
      'http://10.0.0.1/x',
      'http://metadata.google.internal/computeMetadata/v1/',
    ]) {
      await assert.rejects(checkDestination(url, policy), { code: 'VALIDATION_ERROR' }, url);
    }
    assert.equal(lookup.mock.callCount(), 0);
  });

  it('refuses obvious loopback names without DNS when loopback is not allowed', () => {
    for (const url of [
      'https://localhost/x',
      'https://LOCALHOST./x',
      'https://api.localhost/x',
      'https://localhost.localdomain/x',
      'https://ip6-localhost/x',
    ]) {
      assert.throws(() => checkUrlForm(url, PRODUCTION), /loopback/, url);
    }
    assert.equal(checkUrlForm('http://localhost:9000/x', SANDBOX).port, '9000');
  });

  it('resolves in production and refuses a name that resolves to an internal address', async () => {
    const policy = destinationPolicy(loadConfig(PRODUCTION_ENV));
    assert.equal(policy.resolveOnWrite, true);
    const internal = fakeDns('10.0.0.7');
    await assert.rejects(
      checkDestination('https://hooks.example.com/x', policy),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'VALIDATION_ERROR');
        assert.match(error.message, /private network/);
        return true;
      },
    );
    assert.equal(internal.mock.callCount(), 1);
    mock.restoreAll();
    const unresolvable = fakeDns(
      Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }),
    );
    await assert.rejects(
      checkDestination('https://hooks.example.com/x', policy),
      /could not be resolved/,
    );
    assert.equal(unresolvable.mock.callCount(), 1);
    mock.restoreAll();
    fakeDns('93.184.215.14');
    await checkDestination('https://hooks.example.com/x', policy);
  });

  it('lets a sandbox operator set a public webhook URL with DNS down (PUT /admin/clients/:id/webhook)', async () => {
    const testApp = await buildTestApp();
    try {
      const client = await createClient(testApp.app);
      const lookup = fakeDns(
        Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' }),
      );
      const response = await testApp.app.inject({
        method: 'PUT',
        url: `/admin/clients/${client.ibsClientId}/webhook`,
        headers: adminHeaders,
        payload: { url: 'https://hooks.example.com/x' },
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.url, 'https://hooks.example.com/x');
      assert.equal(lookup.mock.callCount(), 0);
    } finally {
      await testApp.close();
    }
  });
});
