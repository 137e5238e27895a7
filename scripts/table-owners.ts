/**
 * Which folder of src/ owns each table (docs/architecture.md), and the file walking the
 * structure checks share: scripts/check-table-ownership.ts (who names a table) and
 * scripts/check-sql.ts (the SQL files' own rules).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const OWNERS: Readonly<Record<string, readonly string[]>> = {
  'src/db': ['schema_migrations', 'schema_functions'],
  'src/ledger': [
    'ledger_accounts',
    'ledger_entries',
    'ledger_journals',
    'ledger_holds',
    'ledger_liens',
    'ledger_notices',
  ],
  'src/auth': [
    'oauth_apps',
    'oauth_app_keys',
    'used_assertion_ids',
    'refresh_tokens',
    'client_access',
    'dashboard_sessions',
    'operators',
    'operator_api_keys',
    'operator_setup_tickets',
  ],
  'src/audit': ['audit_events', 'audit_chain_head'],
  'src/admin/approvals': ['approval_requests'],
  'src/idempotency': ['idempotency_requests'],
  'src/webhooks': ['webhook_endpoints', 'webhook_events', 'webhook_attempts', 'webhook_inbox'],
  'src/rails/nip': ['nip_simulator_sessions'],
  'src/modules/clients': ['clients'],
  'src/modules/accounts': ['accounts', 'account_number_keys'],
  'src/modules/identity': ['identity_verifications'],
  'src/modules/transfers': [
    'transfers',
    'name_enquiries',
    'daily_outbound_totals',
    'bulk_batches',
    'bulk_items',
  ],
  'src/modules/beneficiaries': ['beneficiaries'],
  'src/modules/virtual-accounts': ['virtual_accounts', 'virtual_account_payments'],
  'src/modules/vas': ['vas_services', 'vas_categories', 'vas_products', 'vas_purchases'],
  'src/modules/ussd': ['ussd_references', 'ussd_simulator_references'],
  'src/modules/checkout': ['checkout_sessions', 'checkout_settings'],
  'src/modules/alerts': [
    'alert_messages',
    'alert_suppressed_destinations',
    'alert_statement_months',
    'alert_statements',
  ],
};

/** Views another folder publishes for everyone to read: the ledger's balances. */
export const PUBLIC_VIEWS: Readonly<Record<string, string>> = {
  ledger_account_balances: 'src/ledger',
};

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export const MIGRATIONS = 'src/db/migrations';

/** A function file: `<folder>/sql/<name>.sql` (src/db/sql-functions.ts applies them). */
export const FUNCTION_FILE = /^(src\/.+)\/sql\/([a-z][a-z0-9_]*)\.sql$/;

const ownerOfTable = new Map<string, string>();
for (const [folder, tables] of Object.entries(OWNERS)) {
  for (const table of tables) {
    ownerOfTable.set(table, folder);
  }
}

export function tableOwner(table: string): string | undefined {
  return ownerOfTable.get(table);
}

/** The files under a folder (relative to the root, with /) whose names end so. */
export function filesUnder(folder: string, suffix: string): string[] {
  return readdirSync(path.join(root, folder)).flatMap((name) => {
    const relative = `${folder}/${name}`;
    if (statSync(path.join(root, relative)).isDirectory()) {
      return filesUnder(relative, suffix);
    }
    return relative.endsWith(suffix) ? [relative] : [];
  });
}

/** SQL without its comments (`-- ...` to the end of the line). */
export function withoutComments(sql: string): string {
  return sql.replace(/--.*$/gm, '');
}
