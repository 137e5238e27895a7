// jest/accounts.test.cjs: a CommonJS test file under plain Jest (no transform, no flags):
// require('openibs/testing'), sign in as a fixtures client, call the API.
const path = require('node:path');
const { startSandbox } = require('openibs/testing');

let bank;
// A start loads the whole bank: give it longer than Jest's default 5 s.
beforeAll(async () => {
  bank = await startSandbox({ fixtures: path.join(__dirname, '../fixtures.json') });
}, 60_000);
afterAll(() => bank?.close());

test("a fixtures client's token lists its accounts", async () => {
  const acme = bank.client('Acme Payouts');
  const response = await fetch(`${bank.url}/accounts`, {
    headers: { authorization: `Bearer ${await acme.token()}`, clientid: acme.ibsClientId },
  });
  expect(response.status).toBe(200);
  const [main] = (await response.json()).data;
  expect(main.accountNumber).toBe('0000001013');
  expect(main.accountBalance).toBe(500000);
});
