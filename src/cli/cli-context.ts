import { type ParseArgsConfig, parseArgs } from 'node:util';
import { readDemoClient } from '../sandbox/demo-client.ts';
import { readStoredSecrets } from '../sandbox/secrets.ts';

export interface CliContext {
  readonly positionals: string[];
  readonly options: Record<string, string | boolean | undefined>;
  readonly dataDir: string;
  /** The environment the command runs in (DATABASE_URL, DATA_DIR, ...). */
  readonly env: NodeJS.ProcessEnv;
  baseUrl(): Promise<string>;
  adminToken(): Promise<string>;
}

/** Every flag any command takes (util.parseArgs refuses the others). */
const CLI_OPTIONS = {
  url: { type: 'string' },
  'admin-token': { type: 'string' },
  'data-dir': { type: 'string' },
  'client-id': { type: 'string' },
  key: { type: 'string' },
  audience: { type: 'string' },
  name: { type: 'string' },
  email: { type: 'string' },
  client: { type: 'string' },
  'public-key': { type: 'string' },
  account: { type: 'string' },
  amount: { type: 'string' },
  narration: { type: 'string' },
  'payer-bank': { type: 'string' },
  scenario: { type: 'string' },
  reference: { type: 'string' },
  bank: { type: 'string' },
  status: { type: 'string' },
  event: { type: 'string' },
  since: { type: 'string' },
  operator: { type: 'string' },
  app: { type: 'string' },
  'key-id': { type: 'string' },
  action: { type: 'string' },
  actor: { type: 'string' },
  target: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  page: { type: 'string' },
  limit: { type: 'string' },
  advance: { type: 'string' },
  session: { type: 'string' },
  reason: { type: 'string' },
  freeze: { type: 'boolean' },
  unfreeze: { type: 'boolean' },
  json: { type: 'boolean' },
  memory: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  fixtures: { type: 'string' },
  head: { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** Flags win over environment variables, which win over what the sandbox keeps in DATA_DIR. */
export function createCliContext(argv: string[], env: NodeJS.ProcessEnv): CliContext {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: CLI_OPTIONS,
  });
  const dataDir = values['data-dir'] ?? env.DATA_DIR ?? './data';
  return {
    positionals,
    options: values,
    dataDir,
    env,
    async baseUrl() {
      const demo = await readDemoClient(dataDir);
      return (values.url ?? env.OPENIBS_URL ?? demo?.baseUrl ?? 'http://127.0.0.1:8080').replace(
        /\/+$/,
        '',
      );
    },
    // An operator's own API key (OPENIBS_API_KEY) comes first: the audit trail names them. The
    // admin token is break-glass, and the server refuses it once break-glass is closed.
    async adminToken() {
      const token =
        values['admin-token'] ??
        env.OPENIBS_API_KEY ??
        env.ADMIN_TOKEN ??
        (await readStoredSecrets(dataDir))?.adminToken;
      if (token === undefined) {
        throw new Error(
          'no credential: set OPENIBS_API_KEY (your operator API key), or pass --admin-token or set ADMIN_TOKEN (break-glass)',
        );
      }
      return token;
    },
  };
}
