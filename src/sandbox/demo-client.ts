import { generateKeyPair, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ClientService } from '../modules/clients/index.ts';
import { isNipSimulator } from '../rails/nip/nip-simulator.ts';
import type { Rail } from '../rails/rail.ts';
import { invariant } from '../shared/invariant.ts';
import type { Kobo } from '../shared/money.ts';

export const DEMO_FILE = 'sandbox-demo.json';
export const DEMO_KEY_FILE = 'sandbox-demo-private-key.pem';
/** Who the demo client is: the sandbox's default world (fixtures/demo-world.ts) names it too. */
export const DEMO_CLIENT = Object.freeze({
  name: 'Demo Fintech Ltd',
  emailAddress: 'developers@demo-fintech.example',
  appName: 'Demo app',
});

export interface DemoClient {
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  readonly mainAccountNumber: string;
  readonly baseUrl: string;
  readonly privateKeyFile: string;
}

interface DemoDeps {
  readonly dataDir: string;
  readonly baseUrl: string;
  readonly demoBalanceKobo: Kobo;
  readonly clientService: ClientService;
  /** The opening balance arrives as a credit from another bank, through the rail. */
  readonly network: Rail;
  /** Its key pair, when the caller started making it early (see demoKeyPair). */
  readonly keys?: Promise<DemoKeyPair>;
}

export interface DemoKeyPair {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

/**
 * The demo app's RSA key pair, made on the thread pool: a 2048-bit key takes 0.1 to 0.5 s of
 * CPU, which a start overlaps with loading the database and building the app.
 */
export function demoKeyPair(): Promise<DemoKeyPair> {
  return new Promise((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: 2048 }, (error, publicKey, privateKey) =>
      error === null ? resolve({ publicKey, privateKey }) : reject(error),
    );
  });
}

/**
 * The first sandbox start creates a demo client, an app whose RSA key pair is kept under
 * DATA_DIR, and a funded main account, so a developer can get a token at once.
 */
export async function ensureDemoClient(
  deps: DemoDeps,
): Promise<{ demo: DemoClient; created: boolean }> {
  const existing = await readDemoClient(deps.dataDir);
  if (existing !== undefined && (await clientExists(deps.clientService, existing.ibsClientId))) {
    // The server may have moved (PORT or PUBLIC_BASE_URL changed): keep the CLI pointed at it.
    const demo: DemoClient = { ...existing, baseUrl: deps.baseUrl };
    if (existing.baseUrl !== deps.baseUrl) {
      await writeFile(path.join(deps.dataDir, DEMO_FILE), JSON.stringify(demo, null, 2));
    }
    return { demo, created: false };
  }
  const made = await createDemoClient(deps);
  await mkdir(deps.dataDir, { recursive: true });
  const privateKeyFile = path.resolve(deps.dataDir, DEMO_KEY_FILE);
  await writeFile(privateKeyFile, made.privateKeyPem, { mode: 0o600 });
  const demo: DemoClient = {
    ibsClientId: made.ibsClientId,
    oauthClientId: made.oauthClientId,
    mainAccountNumber: made.mainAccountNumber,
    baseUrl: deps.baseUrl,
    privateKeyFile,
  };
  await writeFile(path.join(deps.dataDir, DEMO_FILE), JSON.stringify(demo, null, 2));
  return { demo, created: true };
}

/** The demo client as made, its private key in memory (an in-memory sandbox writes no file). */
export interface MadeDemoClient {
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  readonly mainAccountNumber: string;
  readonly privateKeyPem: string;
}

/** Makes the demo client, its app and key pair, and its funded main account. */
export async function createDemoClient(
  deps: Omit<DemoDeps, 'dataDir' | 'baseUrl'>,
): Promise<MadeDemoClient> {
  const { privateKey, publicKey } = await (deps.keys ?? demoKeyPair());
  const { client, mainAccount } = await deps.clientService.createClient({
    name: DEMO_CLIENT.name,
    emailAddress: DEMO_CLIENT.emailAddress,
  });
  const { app } = await deps.clientService.registerApp(client.id, {
    name: DEMO_CLIENT.appName,
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  });
  if (deps.demoBalanceKobo > 0n) {
    invariant(isNipSimulator(deps.network), 'the sandbox runs on the NIP simulator');
    await deps.network.sendInboundCredit({
      beneficiaryAccountNumber: mainAccount.accountNumber,
      amountKobo: deps.demoBalanceKobo,
      narration: 'Sandbox opening balance',
      originator: {
        accountName: 'SANDBOX FUNDING',
        accountNumber: '0123456789',
        bankCode: '000013',
      },
    });
  }
  return {
    ibsClientId: client.id,
    oauthClientId: app.oauthClientId,
    mainAccountNumber: mainAccount.accountNumber,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export async function readDemoClient(dataDir: string): Promise<DemoClient | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dataDir, DEMO_FILE), 'utf8')) as DemoClient;
  } catch {
    return undefined;
  }
}

async function clientExists(clientService: ClientService, clientId: string): Promise<boolean> {
  try {
    await clientService.getClient(clientId);
    return true;
  } catch {
    return false;
  }
}
