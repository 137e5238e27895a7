// What a TypeScript caller of openibs/testing (an ES module) gets from the packed package's
// declarations: a team's test helpers, typed. The package job type-checks this file; it is
// never run.
import {
  type Sandbox,
  type SandboxClient,
  type SandboxOptions,
  startSandbox,
  type WebhookRecord,
} from 'openibs/testing';

export function startPayoutsBank(): Promise<Sandbox> {
  const options: SandboxOptions = { fixtures: './test/fixtures.json', port: 0, logLevel: 'silent' };
  return startSandbox(options);
}

export async function acmeHeaders(bank: Sandbox): Promise<Record<string, string>> {
  const acme: SandboxClient = bank.client('Acme Payouts');
  const token: string = await acme.token();
  return { authorization: `Bearer ${token}`, clientid: acme.ibsClientId };
}

export async function acmeBalance(bank: Sandbox): Promise<unknown> {
  const movedTo: Date = await bank.clock.advance('PT16M');
  return movedTo.getTime() > 0 ? (await bank.account('0000001013')).accountBalance : undefined;
}

export async function transferWebhook(bank: Sandbox, sessionId: string): Promise<number | null> {
  const webhook: WebhookRecord = await bank.webhooks.waitFor(
    'transfer',
    (record, payload) =>
      record.type === 'transfer' &&
      (payload.data as { sessionId?: string } | undefined)?.sessionId === sessionId,
    { timeoutMs: 5000 },
  );
  return webhook.responseStatus;
}

export async function loseTheNextTransferAnswer(bank: Sandbox, clientId: string): Promise<void> {
  await bank.faults.inject({ clientId, route: 'POST /transfers', fault: 'commit-then-504' });
  // @ts-expect-error: a fault the sandbox does not have
  await bank.faults.inject({ clientId, route: 'POST /transfers', fault: '418' });
  // @ts-expect-error: waitFor needs the webhook's type
  await bank.webhooks.waitFor();
  // @ts-expect-error: the port is a number
  await startSandbox({ port: '4000' });
}

export async function startOver(bank: Sandbox): Promise<void> {
  await bank.reset();
  await bank.close();
}
