// `npx openibs start --memory --port 0 --fixtures FILE` as a child process, called over HTTP
// as any other language's test would: the CLI signs in with a fixtures key file.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const FIXTURES = fileURLToPath(new URL('./fixtures.json', import.meta.url));
const BIN = fileURLToPath(new URL('../node_modules/openibs/bin/openibs.js', import.meta.url));

describe('npx openibs start --memory as a child process', () => {
  let child;
  let ready;
  let folder;
  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'openibs-cli-'));
    child = spawn(
      process.execPath,
      [BIN, 'start', '--memory', '--port', '0', '--fixtures', FIXTURES, '--json'],
      {
        cwd: folder,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    ready = await new Promise((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
        const line = text.split('\n').find((candidate) => candidate.startsWith('{'));
        if (line !== undefined) {
          resolve(JSON.parse(line));
        }
      });
      child.once('exit', (code) => reject(new Error(`openibs start exited with ${code}`)));
    });
  });
  after(async () => {
    child?.kill('SIGTERM');
    await rm(folder, { recursive: true, force: true });
  });

  it('prints the free port it took, and answers /health', async () => {
    assert.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(ready.url, `http://127.0.0.1:${ready.port}`);
    assert.equal((await fetch(`${ready.url}/health`)).status, 200);
  });

  it('signs in as a fixtures client with the CLI and lists its accounts', async () => {
    const fixtures = JSON.parse(await readFile(FIXTURES, 'utf8'));
    const [acme] = fixtures.clients;
    const keyFile = path.join(folder, 'acme.pem');
    await writeFile(keyFile, acme.apps[0].privateKeyPem);
    const { stdout } = await promisify(execFile)(process.execPath, [
      BIN,
      'token',
      '--url',
      ready.url,
      '--client-id',
      acme.apps[0].oauthClientId,
      '--key',
      keyFile,
    ]);
    const accounts = await fetch(`${ready.url}/accounts`, {
      headers: { authorization: `Bearer ${stdout.trim()}`, clientid: acme.ibsClientId },
    });
    assert.equal(accounts.status, 200);
    const [main] = (await accounts.json()).data;
    assert.equal(main.accountNumber, acme.accounts[0].accountNumber);
    assert.equal(main.accountBalance, 500000);
  });

  it('writes nothing to its working folder', async () => {
    const { readdir } = await import('node:fs/promises');
    assert.deepEqual(
      (await readdir(folder)).filter((name) => name !== 'acme.pem'),
      [],
    );
  });
});
