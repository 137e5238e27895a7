// What a TypeScript caller in CommonJS gets: require('openibs/testing') resolves to the
// package's index.d.cts, with the same function and types. Type-checked, never run.
import testing = require('openibs/testing');

export async function openingBalance(accountNumber: string): Promise<unknown> {
  const bank: testing.Sandbox = await testing.startSandbox({ fixtures: { clients: [] } });
  try {
    const acme: testing.SandboxClient = bank.client();
    const records: testing.WebhookRecord[] = await bank.webhooks.list({
      clientId: acme.ibsClientId,
    });
    // @ts-expect-error: a fault the sandbox does not have
    await bank.faults.inject({ clientId: acme.ibsClientId, route: 'GET /accounts', fault: '418' });
    return records.length === 0 ? (await bank.account(accountNumber)).accountBalance : undefined;
  } finally {
    await bank.close();
  }
}
