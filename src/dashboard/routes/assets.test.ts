/** The dashboard's own stylesheet and script: served without a session, as they are on disk. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: assets', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await buildTestApp();
  });
  after(async () => testApp?.close());

  const onDisk = (name: string) =>
    readFileSync(new URL(`../assets/${name}`, import.meta.url), 'utf8');

  it('serves the stylesheet and the script, before any sign-in, cached a little', async () => {
    for (const [name, type] of [
      ['dashboard.css', /^text\/css/],
      ['dashboard.js', /^application\/javascript/],
    ] as const) {
      const answer = await testApp.app.inject({ url: `/dashboard/assets/${name}` });
      assert.equal(answer.statusCode, 200, name);
      assert.match(String(answer.headers['content-type']), type);
      assert.equal(answer.headers['cache-control'], 'public, max-age=300');
      assert.equal(answer.body, onDisk(name));
    }
  });

  it('an asset it does not have is not found, and nothing else of the folder is served', async () => {
    for (const name of ['nothing.css', '..%2Fhtml.ts', 'dashboard.css.map']) {
      const answer = await testApp.app.inject({ url: `/dashboard/assets/${name}` });
      assert.equal(answer.statusCode, 404, name);
    }
  });
});
