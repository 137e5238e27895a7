import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config/config.ts';
import { createDb } from '../db/create-db.ts';
import { migrate } from '../db/migrate.ts';
import { readDemoClient } from '../sandbox/demo-client.ts';
import { type CliCommand, call, required } from './admin-call.ts';
import { auditCommands } from './audit-commands.ts';
import type { CliContext } from './cli-context.ts';
import { signClientAssertion } from './client-assertion-signer.ts';
import { OPERATOR_COMMANDS } from './operator-commands.ts';
import { SANDBOX_COMMANDS } from './sandbox-commands.ts';
import { START_COMMAND } from './start-command.ts';

async function assertion(context: CliContext) {
  const demo = await readDemoClient(context.dataDir);
  const oauthClientId = (context.options['client-id'] as string | undefined) ?? demo?.oauthClientId;
  const keyFile = (context.options.key as string | undefined) ?? demo?.privateKeyFile;
  if (oauthClientId === undefined || keyFile === undefined) {
    throw new Error('no demo client in DATA_DIR: pass --client-id and --key');
  }
  const baseUrl = await context.baseUrl();
  const signed = await signClientAssertion({
    oauthClientId,
    privateKeyPem: await readFile(keyFile, 'utf8'),
    audience: (context.options.audience as string | undefined) ?? baseUrl,
  });
  return { oauthClientId, baseUrl, signed };
}

/** The command table; `openibs help` prints it. */
export const COMMANDS: Record<string, CliCommand> = {
  start: START_COMMAND,
  migrate: {
    usage:
      'migrate   apply migrations and SQL functions to DATABASE_URL (or DATA_DIR PGlite, server stopped)',
    async run() {
      const config = loadConfig();
      const db = await createDb(config);
      try {
        const { migrations, functions } = await migrate(db);
        const applied = [
          ...(migrations.length === 0 ? [] : [`migrations ${migrations.join(', ')}`]),
          ...(functions.length === 0 ? [] : [`functions ${functions.join(', ')}`]),
        ];
        return applied.length === 0 ? 'nothing to apply' : `applied ${applied.join('; ')}`;
      } finally {
        await db.close();
      }
    },
  },
  token: {
    usage: 'token [--client-id ID --key private.pem] [--json]   print a fresh access token',
    async run(context) {
      const { oauthClientId, baseUrl, signed } = await assertion(context);
      const response = await fetch(`${baseUrl}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: oauthClientId,
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: signed,
        }),
      });
      const payload = (await response.json()) as { access_token?: string; message?: string };
      if (response.status !== 201 || payload.access_token === undefined) {
        throw new Error(`token request failed (${response.status}): ${payload.message ?? ''}`);
      }
      return context.options.json === true ? payload : payload.access_token;
    },
  },
  assertion: {
    usage:
      'assertion [--client-id ID --key private.pem] [--audience URL]   print a client assertion',
    async run(context) {
      return (await assertion(context)).signed;
    },
  },
  'clients:create': {
    usage: 'clients:create --name NAME [--email EMAIL]   onboard a client with a main account',
    run: (context) =>
      call(context, 'POST', '/admin/clients', {
        name: required(context, 'name'),
        ...(context.options.email === undefined ? {} : { emailAddress: context.options.email }),
      }),
  },
  'apps:create': {
    usage: 'apps:create --client ID --name NAME --public-key FILE   register an OAuth app',
    async run(context) {
      const publicKey = await readFile(required(context, 'public-key'), 'utf8');
      return call(context, 'POST', `/admin/clients/${required(context, 'client')}/apps`, {
        name: required(context, 'name'),
        publicKey,
      });
    },
  },
  'webhooks:set': {
    usage: 'webhooks:set --client ID --url URL   set a client webhook URL (prints the secret)',
    run: (context) =>
      call(context, 'PUT', `/admin/clients/${required(context, 'client')}/webhook`, {
        url: required(context, 'url'),
      }),
  },
  'webhooks:list': {
    usage: 'webhooks:list --client ID [--status failed]   deliveries with their attempts',
    run: (context) => {
      const status =
        typeof context.options.status === 'string' ? `?status=${context.options.status}` : '';
      return call(
        context,
        'GET',
        `/admin/clients/${required(context, 'client')}/webhooks/deliveries${status}`,
      );
    },
  },
  'webhooks:replay': {
    usage: 'webhooks:replay --client ID (--event ID | --since DATE)   send deliveries again',
    run: (context) => {
      const client = required(context, 'client');
      const event = context.options.event;
      return typeof event === 'string'
        ? call(context, 'POST', `/admin/clients/${client}/webhooks/deliveries/${event}/replay`)
        : call(context, 'POST', `/admin/clients/${client}/webhooks/replay`, {
            since: required(context, 'since'),
          });
    },
  },
  'sandbox:credit': {
    usage: 'sandbox:credit --account NUMBER --amount NAIRA [--narration TEXT]   inbound credit',
    run: (context) =>
      call(context, 'POST', '/admin/sandbox/credits', {
        accountNumber: required(context, 'account'),
        amount: Number(required(context, 'amount')),
        ...(context.options.narration === undefined
          ? {}
          : { narration: context.options.narration }),
      }),
  },
  'sandbox:pay-virtual-account': {
    usage:
      'sandbox:pay-virtual-account --account NUMBER --amount NAIRA [--payer-bank CODE] ' +
      '[--scenario onTime|afterExpiry|duplicateSession]   pay a virtual account from another bank',
    run: (context) => {
      const { options } = context;
      return call(context, 'POST', '/admin/sandbox/virtual-account-payments', {
        accountNumber: required(context, 'account'),
        amount: Number(required(context, 'amount')),
        ...(options['payer-bank'] === undefined ? {} : { payerBankCode: options['payer-bank'] }),
        ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
      });
    },
  },
  'accounts:freeze': {
    usage: 'accounts:freeze --account NUMBER   stop every debit and credit on an account',
    run: (context) =>
      call(
        context,
        'POST',
        `/admin/accounts/${encodeURIComponent(required(context, 'account'))}/freeze`,
        {},
      ),
  },
  'accounts:unfreeze': {
    usage: 'accounts:unfreeze --account NUMBER   let a frozen account move money again',
    run: (context) =>
      call(
        context,
        'POST',
        `/admin/accounts/${encodeURIComponent(required(context, 'account'))}/unfreeze`,
        {},
      ),
  },
  'sandbox:ussd-dial': {
    usage:
      'sandbox:ussd-dial --reference REF [--bank USSD_CODE] [--amount NAIRA]   a customer dials a ' +
      'USSD reference at their bank and pays it',
    run: (context) => {
      const { options } = context;
      return call(context, 'POST', '/admin/sandbox/ussd-dials', {
        reference: required(context, 'reference'),
        ...(options.bank === undefined ? {} : { ussdBankCode: options.bank }),
        ...(options.amount === undefined ? {} : { amount: Number(options.amount) }),
      });
    },
  },
  ...OPERATOR_COMMANDS,
  ...auditCommands(),
  ...SANDBOX_COMMANDS,
};
