// A CommonJS test file (Jest's default, and older suites) requires the same entry point.
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { startSandbox } = require('openibs/testing');

test('require("openibs/testing") starts a sandbox', async () => {
  const bank = await startSandbox({ logLevel: 'silent' });
  try {
    assert.equal((await fetch(`${bank.url}/health`)).status, 200);
    const demo = bank.client();
    assert.match(demo.ibsClientId, /^[0-9a-f]{24}$/);
    const accounts = await fetch(`${bank.url}/accounts`, { headers: await demo.headers() });
    assert.equal(accounts.status, 200);
  } finally {
    await bank.close();
  }
});
