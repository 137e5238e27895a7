// PostgreSQL only: PGlite is one session, so two replacements never interleave there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { adminHeaders, signedInClient, VAS } from '../factories.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../harness.ts';

/** A catalogue of `count` data bundles, all tagged with `tag` so a mix of two would show. */
function catalogue(tag: string, count: number) {
  return Array.from({ length: count }, (_, index) => ({
    name: `MTN ${tag} ${index + 1}GB`,
    bundleCode: `mtn-${index + 1}gb-${tag}`,
    amount: 100 * (index + 1),
    duration: '30 days',
    isAmountFixed: true,
  }));
}

describe("a category's products replaced by concurrent operators (PostgreSQL)", () => {
  let testApp: TestApp;
  let headers: Record<string, string>;
  /** Two service graphs on one database, as two server processes would be. */
  const apps: FastifyInstance[] = [];

  before(async () => {
    testApp = await buildTestApp({}, { poolSize: 20 });
    headers = (await signedInClient(testApp)).headers;
    apps.push(testApp.app, await buildSecondApp(testApp));
  });
  after(async () => {
    await apps[1]?.close();
    await testApp?.close();
  });

  const replace = (index: number, products: ReturnType<typeof catalogue>) =>
    (apps[index % apps.length] as FastifyInstance).inject({
      method: 'PUT',
      url: `/admin/vas/service-categories/${VAS.mtnData}/products`,
      headers: adminHeaders,
      payload: { products },
    });

  const listed = async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/vas/service-category/${VAS.mtnData}/products`,
      headers,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };

  it('ten identical replacements at once: ten 200s, and the catalogue is the body', async () => {
    const products = catalogue('same', 12);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => replace(index, products)),
    );
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      Array.from({ length: 10 }, () => 200),
      answers.map((answer) => answer.body.slice(0, 200)).join('\n'),
    );
    for (const answer of answers) {
      assert.deepEqual(answer.json().data, products);
    }
    assert.deepEqual(await listed(), products);
  });

  it('different replacements at once: all 200, and the catalogue is exactly one of them', async () => {
    const bodies = Array.from({ length: 10 }, (_, index) => catalogue(`v${index}`, 5 + index));
    const answers = await Promise.all(bodies.map((products, index) => replace(index, products)));
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      Array.from({ length: 10 }, () => 200),
      answers.map((answer) => answer.body.slice(0, 200)).join('\n'),
    );
    // Each answer is the catalogue its own replacement made, never a mix with another.
    for (const [index, answer] of answers.entries()) {
      assert.deepEqual(answer.json().data, bodies[index]);
    }
    const final = await listed();
    assert.ok(
      bodies.some((products) => JSON.stringify(products) === JSON.stringify(final)),
      JSON.stringify(final),
    );
  });
});
