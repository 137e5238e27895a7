import type { KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Fixtures } from '../src/sandbox/fixtures/index.ts';
import { nubanFromSerial } from '../src/shared/nuban.ts';
import { adminHeaders, publicKeyPem, rsaKeyPair, signAssertion } from './factories.ts';

/** The sandbox's institution code in tests (INSTITUTION_CODE's default). */
export const TEST_INSTITUTION_CODE = '999240';

/** A valid NUBAN of the test bank from a serial, as a fixtures file would carry it. */
export function fixtureNuban(serial: number, institutionCode = TEST_INSTITUTION_CODE): string {
  return nubanFromSerial(institutionCode, BigInt(serial));
}

export const ACME = {
  ibsClientId: '65f1a0000000000000000001',
  oauthClientId: 'acacacacacacacacacacacacacacacac',
  mainAccountNumber: fixtureNuban(11),
  payrollAccountNumber: fixtureNuban(12),
  subAccountNumber: fixtureNuban(13),
  webhookSecret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
} as const;

export const RIVAL = {
  ibsClientId: '65f1a0000000000000000002',
  oauthClientId: 'babababababababababababababababa',
  mainAccountNumber: fixtureNuban(21),
} as const;

/** A category of the seeded catalogue (the baseline migration): MTN airtime. */
export const MTN_AIRTIME = '61e988830e69308aa37a7a99';

/**
 * Two clients with every kind of fixture: Acme signs with a private key written in the test
 * (key 0 of test/factories.ts), Rival registers a public key (key 1).
 */
export function sampleFixtures(options: { webhookUrl?: string; seed?: string } = {}): Fixtures {
  return {
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    clients: [
      {
        name: 'Acme Fintech',
        ibsClientId: ACME.ibsClientId,
        emailAddress: 'dev@acme.example',
        apps: [
          { name: 'Acme app', oauthClientId: ACME.oauthClientId, privateKeyPem: privatePem(0) },
        ],
        accounts: [
          { accountNumber: ACME.mainAccountNumber, balance: 250_000 },
          {
            accountNumber: ACME.payrollAccountNumber,
            suffix: 'Payroll',
            accountType: 'Savings',
            balance: 1000.5,
          },
        ],
        subAccounts: [
          {
            accountNumber: ACME.subAccountNumber,
            accountName: 'Ada Obi',
            externalReference: 'customer-1',
            phoneNumber: '08012345678',
            emailAddress: 'ada@example.com',
            balance: 300,
          },
        ],
        beneficiaries: [
          { bankCode: '000014', accountNumber: '0123456789', accountName: 'JANE DOE' },
        ],
        webhook: {
          ...(options.webhookUrl === undefined ? {} : { url: options.webhookUrl }),
          secret: ACME.webhookSecret,
        },
        virtualAccounts: [
          {
            settlementAccountNumber: ACME.mainAccountNumber,
            amount: 5000,
            externalReference: 'order-1',
            ...(options.webhookUrl === undefined ? { callbackUrl: 'https://acme.example/va' } : {}),
          },
        ],
      },
      {
        name: 'Rival Ltd',
        ibsClientId: RIVAL.ibsClientId,
        apps: [
          {
            oauthClientId: RIVAL.oauthClientId,
            publicKeyPem: publicKeyPem(rsaKeyPair(1).publicKey),
          },
        ],
        accounts: [{ accountNumber: RIVAL.mainAccountNumber, balance: 10 }],
      },
    ],
    vasCatalogue: {
      categories: [{ id: MTN_AIRTIME, description: 'MTN airtime (fixture)', minAmount: 100 }],
    },
    simulators: { nip: { nextOutcomes: ['51'] } },
  };
}

export function privatePem(keyIndex: number): string {
  return rsaKeyPair(keyIndex).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

export async function applyFixtures(app: FastifyInstance, fixtures: unknown) {
  return app.inject({
    method: 'POST',
    url: '/admin/sandbox/fixtures',
    headers: adminHeaders,
    payload: fixtures as Record<string, unknown>,
  });
}

export async function resetSandbox(app: FastifyInstance) {
  return app.inject({ method: 'POST', url: '/admin/sandbox/reset', headers: adminHeaders });
}

/** The headers a fixtures client calls the API with, its token got with its fixture key. */
export async function fixtureClientHeaders(
  app: FastifyInstance,
  client: { ibsClientId: string; oauthClientId: string; privateKey: KeyObject },
  now: Date,
): Promise<Record<string, string>> {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth2/token',
    payload: {
      grant_type: 'client_credentials',
      client_id: client.oauthClientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await signAssertion(client, { now }),
    },
  });
  if (response.statusCode !== 201) {
    throw new Error(`token exchange failed: ${response.body}`);
  }
  return {
    authorization: `Bearer ${response.json().access_token}`,
    clientid: client.ibsClientId,
  };
}
