/**
 * Each table belongs to one folder of src/, and only that folder's code names it in SQL
 * (docs/architecture.md). Part of `npm run lint`: it fails on a query of another folder's table,
 * and on a table a migration creates that has no owner here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const OWNERS: Record<string, readonly string[]> = {
  'src/db': ['schema_migrations', 'schema_functions'],
  'src/ledger': ['ledger_accounts', 'ledger_entries', 'ledger_journals', 'ledger_holds'],
  'src/auth': [
    'oauth_apps',
    'oauth_app_keys',
    'used_assertion_ids',
    'refresh_tokens',
    'client_access',
    'dashboard_sessions',
  ],
  'src/audit': ['audit_events'],
  'src/idempotency': ['idempotency_requests'],
  'src/webhooks': ['webhook_endpoints', 'webhook_events', 'webhook_attempts', 'webhook_inbox'],
  'src/rails/nip': ['nip_simulator_sessions'],
  'src/modules/clients': ['clients'],
  'src/modules/accounts': ['accounts', 'account_number_keys'],
  'src/modules/identity': ['identity_verifications'],
  'src/modules/transfers': ['transfers', 'name_enquiries', 'daily_outbound_totals'],
  'src/modules/beneficiaries': ['beneficiaries'],
  'src/modules/virtual-accounts': ['virtual_accounts', 'virtual_account_payments'],
  'src/modules/vas': ['vas_services', 'vas_categories', 'vas_products', 'vas_purchases'],
  'src/modules/ussd': ['ussd_references', 'ussd_simulator_references'],
  'src/modules/checkout': ['checkout_sessions', 'checkout_settings'],
};

/** Views another folder publishes for everyone to read: the ledger's balances. */
const PUBLIC_VIEWS: Record<string, string> = { ledger_account_balances: 'src/ledger' };

// SQL keywords are written in capitals here, which keeps prose out of the match.
const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_][a-z0-9_]*)/g;
const DROPPED = /\bDROP\s+(?:TABLE|VIEW)\s+(?:IF\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/g;
const CREATED = /\bCREATE\s+(?:TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/g;

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const ownerOf = new Map<string, string>();
for (const [folder, tables] of Object.entries(OWNERS)) {
  for (const table of tables) {
    ownerOf.set(table, folder);
  }
}

function files(directory: string, suffix: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    return statSync(full).isDirectory() ? files(full, suffix) : full.endsWith(suffix) ? [full] : [];
  });
}

const problems: string[] = [];
const existing = new Map<string, string>();
for (const migration of files(path.join(root, 'src/db/migrations'), '.sql').sort()) {
  const sql = readFileSync(migration, 'utf8');
  for (const [, table = ''] of sql.matchAll(CREATED)) {
    existing.set(table, path.relative(root, migration));
  }
  for (const [, table = ''] of sql.matchAll(DROPPED)) {
    existing.delete(table);
  }
}
for (const [table, migration] of existing) {
  if (!ownerOf.has(table) && !(table in PUBLIC_VIEWS)) {
    problems.push(`${migration}: table ${table} has no owner`);
  }
}
for (const file of files(path.join(root, 'src'), '.ts')) {
  const relative = path.relative(root, file);
  if (/\.(test|contract)\.ts$/.test(relative)) {
    continue;
  }
  const text = readFileSync(file, 'utf8');
  for (const [, word = ''] of text.matchAll(SQL_TABLE)) {
    const table = word.toLowerCase();
    const owner = ownerOf.get(table) ?? (writes(text, table) ? PUBLIC_VIEWS[table] : undefined);
    if (owner !== undefined && !relative.startsWith(`${owner}/`)) {
      problems.push(`${relative}: queries ${table}, which belongs to ${owner}`);
    }
  }
}

/** A published view may be read anywhere, but written only by its owner. */
function writes(text: string, table: string): boolean {
  return new RegExp(`\\b(?:INTO|UPDATE)\\s+${table}\\b`).test(text);
}

if (problems.length > 0) {
  process.stderr.write(
    `Table ownership (scripts/check-table-ownership.ts):\n${problems.join('\n')}\n`,
  );
  process.exit(1);
}
process.stdout.write("Table ownership: every query names its own folder's tables.\n");
