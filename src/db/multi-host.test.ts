import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { freePort } from '../../test/server-process.ts';
import { onPostgres, TEST_DATABASE_URL } from '../../test/test-db.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import type { Db } from './db.ts';
import {
  type DatabaseHost,
  firstWritableHost,
  NoWritableHostError,
  parseMultiHostUrl,
  ReadOnlyHostError,
} from './multi-host.ts';
import { createPgDb } from './pg-db.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('parseMultiHostUrl', () => {
  it('leaves a URL with one host (or none) alone', () => {
    for (const url of [
      'postgres://user:pass@db.internal:5432/openibs?sslmode=require',
      'postgresql://localhost/openibs',
      'postgres://user@[::1]:5433/openibs',
      'postgres:///openibs?host=/var/run/postgresql',
      'socket://user:pass@/var/run/postgresql?db=openibs',
      '/var/run/postgresql openibs',
      'host=db1 dbname=openibs',
      // A comma after the host is in the path or the query, not in the host list.
      'postgres://user@db1:5432/openibs?options=a,b',
    ]) {
      assert.equal(parseMultiHostUrl(url), undefined, url);
    }
  });

  it('gives each host a URL of its own with the same credentials, database and parameters', () => {
    const parsed = parseMultiHostUrl(
      'postgres://ibs:s%40cr%2Ct@10.0.0.1:5432,10.0.0.2:6432/openibs?sslmode=require&application_name=x',
    );
    assert.deepEqual(parsed, {
      targetSessionAttrs: 'read-write',
      hosts: [
        {
          label: '10.0.0.1:5432',
          url: 'postgres://ibs:s%40cr%2Ct@10.0.0.1:5432/openibs?sslmode=require&application_name=x',
        },
        {
          label: '10.0.0.2:6432',
          url: 'postgres://ibs:s%40cr%2Ct@10.0.0.2:6432/openibs?sslmode=require&application_name=x',
        },
      ],
    });
  });

  it('takes hosts without a port, IPv6 addresses and no credentials', () => {
    const parsed = parseMultiHostUrl('postgresql://db1,[fd00::2]:5433,db3:5434/openibs');
    assert.deepEqual(
      parsed?.hosts.map((host) => host.url),
      [
        'postgresql://db1/openibs',
        'postgresql://[fd00::2]:5433/openibs',
        'postgresql://db3:5434/openibs',
      ],
    );
  });

  it('reads target_session_attrs and takes it out of the per-host URLs', () => {
    const readWrite = parseMultiHostUrl(
      'postgres://u@a:1,b:2/db?connect_timeout=3&target_session_attrs=read-write&sslmode=disable',
    );
    assert.equal(readWrite?.targetSessionAttrs, 'read-write');
    assert.equal(readWrite?.hosts[1]?.url, 'postgres://u@b:2/db?connect_timeout=3&sslmode=disable');
    const primary = parseMultiHostUrl('postgres://u@a:1,b:2/db?target_session_attrs=primary#x');
    assert.equal(primary?.targetSessionAttrs, 'primary');
    assert.equal(primary?.hosts[0]?.url, 'postgres://u@a:1/db#x');
  });

  it('refuses a session kind that may be read-only: OpenIBS writes on every connection', () => {
    for (const attrs of ['any', 'read-only', 'standby', 'prefer-standby', 'nonsense']) {
      assert.throws(
        () => parseMultiHostUrl(`postgres://u:secret@a:1,b:2/db?target_session_attrs=${attrs}`),
        (error: Error) =>
          error.message.includes(`target_session_attrs=${attrs}`) &&
          !error.message.includes('secret'),
      );
    }
  });

  it('refuses a malformed host list without showing the URL (it holds the password)', () => {
    for (const url of [
      'postgres://u:secret@a:5432,,b:5432/db',
      'postgres://u:secret@a:5432,b:99999/db',
      'postgres://u:secret@a:5432,b:/db',
      'postgres://u:secret@a:5432,b:x/db',
      'postgres://u:secret@a:5432,fd00::2/db',
      'postgres://u:secret@a:5432,/db',
    ]) {
      assert.throws(
        () => parseMultiHostUrl(url),
        (error: Error) =>
          /host \d of the host list is not host\[:port\]/.test(error.message) &&
          !error.message.includes('secret'),
        url,
      );
    }
  });
});

describe('firstWritableHost', () => {
  const hosts: DatabaseHost[] = ['a:1', 'b:2', 'c:3'].map((label) => ({
    label,
    url: `postgres://${label}/db`,
  }));

  /** A probe that answers each host as scripted, and remembers which it tried. */
  function scripted(answers: Record<string, Error | 'writable'>) {
    const tried: string[] = [];
    const probe = async (host: DatabaseHost) => {
      tried.push(host.label);
      const answer = answers[host.label];
      if (answer === 'writable') {
        return host.label;
      }
      throw answer ?? withCode(`connect ECONNREFUSED ${host.label}`, 'ECONNREFUSED');
    };
    return { tried, probe };
  }

  it('keeps the first writable host, in order, and tries no further', async () => {
    const { tried, probe } = scripted({ 'b:2': 'writable', 'c:3': 'writable' });
    assert.deepEqual(await firstWritableHost(hosts, probe), { host: hosts[1], answer: 'b:2' });
    assert.deepEqual(tried, ['a:1', 'b:2']);
  });

  it('passes over a read-only host (a standby)', async () => {
    const { tried, probe } = scripted({
      'a:1': new ReadOnlyHostError('read-only: a standby (in recovery)'),
      'c:3': 'writable',
    });
    assert.equal((await firstWritableHost(hosts, probe)).answer, 'c:3');
    assert.deepEqual(tried, ['a:1', 'b:2', 'c:3']);
  });

  it('no host down or read-only takes writes: unavailable (503), with what each answered', async () => {
    const { probe } = scripted({
      'a:1': withCode('the database system is starting up', '57P03'),
      'b:2': new ReadOnlyHostError('read-only: a standby (in recovery)'),
    });
    const error = await firstWritableHost(hosts, probe).then(
      () => assert.fail('no host is writable'),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof NoWritableHostError);
    assert.equal(error.code, '08001');
    assert.ok(isDatabaseUnavailable(error));
    assert.equal(
      error.message,
      'no host in DATABASE_URL accepts writes: a:1 (the database system is starting up); ' +
        'b:2 (read-only: a standby (in recovery)); c:3 (connect ECONNREFUSED c:3)',
    );
    assert.equal((error.cause as AggregateError).errors.length, 3);
  });

  it('a host that refuses our credentials is a mistake to show as it is, not an outage', async () => {
    const refused = withCode('password authentication failed for user "ibs"', '28P01');
    const { probe } = scripted({ 'b:2': refused });
    await assert.rejects(firstWritableHost(hosts, probe), (error) => error === refused);
  });

  it('a host that refuses our credentials does not stop the search', async () => {
    const { probe } = scripted({
      'a:1': withCode('password authentication failed for user "ibs"', '28P01'),
      'b:2': 'writable',
    });
    assert.equal((await firstWritableHost(hosts, probe)).answer, 'b:2');
  });
});

describe('several hosts in DATABASE_URL (PostgreSQL)', { skip: !onPostgres }, () => {
  const opened: Db[] = [];
  after(() => Promise.all(opened.map((db) => db.close())));

  /** TEST_DATABASE_URL's server behind hosts that refuse connections, in the order given. */
  async function urlWith(order: ('dead' | 'live')[], query = ''): Promise<string> {
    const live = new URL(TEST_DATABASE_URL ?? '');
    const hosts: string[] = [];
    for (const which of order) {
      hosts.push(which === 'live' ? live.host : `127.0.0.1:${await freePort()}`);
    }
    const userinfo = live.username === '' ? '' : `${live.username}:${live.password}@`;
    const search = [live.search.slice(1), query].filter((part) => part !== '').join('&');
    return `${live.protocol}//${userinfo}${hosts.join(',')}${live.pathname}${search === '' ? '' : `?${search}`}`;
  }

  function pool(url: string): Db {
    const db = createPgDb({ connectionString: url, poolSize: 2, connectTimeoutMs: 2_000 });
    opened.push(db);
    return db;
  }

  it('connects to the first host that takes writes', async () => {
    const live = new URL(TEST_DATABASE_URL ?? '');
    const db = pool(await urlWith(['dead', 'dead', 'live']));
    const [row] = await db.query<{ port: number; read_only: string }>(
      "SELECT inet_server_port() AS port, current_setting('transaction_read_only') AS read_only",
    );
    assert.equal(row?.port, Number(live.port || 5432));
    assert.equal(row?.read_only, 'off');
    assert.equal(
      await db.transaction(
        async (tx) => (await tx.query<{ one: number }>('SELECT 1 AS one')).length,
      ),
      1,
    );
  });

  it('passes over a host whose sessions are read-only; unavailable when none is writable', async () => {
    const readOnly = 'options=-c%20default_transaction_read_only%3Don';
    const db = pool(await urlWith(['dead', 'live'], readOnly));
    const error = await db.query('SELECT 1').then(
      () => assert.fail('every host is read-only or down'),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof NoWritableHostError, String(error));
    assert.ok(isDatabaseUnavailable(error));
    assert.match(error.message, /read-only: default_transaction_read_only is on/);
    // `primary` asks only that the server is not a standby.
    const primary = pool(
      await urlWith(['dead', 'live'], `${readOnly}&target_session_attrs=primary`),
    );
    assert.deepEqual(await primary.query('SELECT 1 AS one'), [{ one: 1 }]);
  });
});
