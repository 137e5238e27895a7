import type { Tx } from './db.ts';

/**
 * The migrations OpenIBS had before the baseline (test/fixtures/legacy-migrations/): their names
 * and checksums as schema_migrations records them. A database they made, up to the last, has
 * the baseline's tables already: the migrator records it as at the baseline instead of running
 * the baseline, and the function files replace the functions those migrations made
 * (docs/adr/0002-sql-as-code.md). Nothing else changes and no data moves.
 */
const LEGACY_MIGRATIONS: Readonly<Record<string, string>> = {
  '0001_clients_and_apps.sql': '05ee7192e0f9883d3f877574850686a9112a8aa523991b8ba52b84dbf4dab180',
  '0002_ledger.sql': '6d675b85e941a331efef07b5ef614cccd96c5bcb5b36b76e3a9f19477678aa74',
  '0003_ledger_functions.sql': 'a603c5e173350b7d309abcb4c0bfbd2b1955d7ff1d587f6883c862a26b52720d',
  '0004_accounts.sql': '86e19907113982f06baf92e543cb4f49b86a7150dbd99a4a0994ca2a5f53409f',
  '0005_transfers.sql': '624ec688e083464c2d2daa564cf9ee752fc3b85d02579f3971648e1d3dfc8402',
  '0006_webhooks.sql': 'a9603e6218a57302d6075ccd19144b69bf701f1649a1c563d7b2b4cb350add54',
  '0007_outbound_transfers.sql': '9954a74da06878b9c1ca854672d18009c9a702470023bf486a5150f5f2dbb66f',
  '0008_nip_simulator_sessions.sql':
    'e2d8475e0412884132ab5960ecdbcb7eb7a3d1be36e2d495669a280d494e4756',
  '0009_transfer_save_beneficiary.sql':
    'f4a87510be08f43ba37cec19e9600be7efe3ca279a6fff553a99caa9faa7f4af',
  '0010_identity_verifications.sql':
    'eaf19fae9ae861086ca5f8ae2e430fb35ce0bbee575aa16a32c0e72853125aec',
  '0011_sub_accounts.sql': 'c6407c36081d394822dea27e1e2ca5bcd2e9aea52c263a1e6de561be05906c6c',
  '0012_module_boundaries.sql': '086ffb084f43c402bdabfa829c79e4171d16d0fc4cfd5b445c86d9cc740663aa',
  '0013_daily_outbound_totals.sql':
    '77093257060a55bb1a5b525374af8174a89f62460f4e9fe205f798b28c48bc89',
  '0014_transfer_placement.sql': '797938181a287d7bdd5fe7d499a31761e6ab5b60851c72d282cc8fa0b0143e9d',
  '0015_transfer_settlement_and_credits.sql':
    'bf28f8358933f494750f0194eaccfe60c579c8b7ceae5b3c85e2922d80415fde',
  '0016_virtual_accounts.sql': 'ce007323ef925cede058c3815cd742771b1565b32d8b2f0ecdd809f53bca6fd7',
  '0017_vas.sql': '8e2e4a88f3a305cc0bf107ea64c7d6779ade51ec6a6601ab0df0cdfc1c2257a4',
  '0018_vas_catalogue.sql': 'fa59a15328b53c95cbef9fccb110b6dbf2b873d4c296985eda9026647a0a47de',
  '0019_ussd.sql': '9fc1fd994ce73c5be53f4196b8553677e092db5ca682a3638c5d2919361d0a76',
  '0020_checkout.sql': '554e1e81d6b0b5062ab974b6893fb1d0b29abd453910b73cfbfb4de45f8cdaf2',
  '0021_account_number_key.sql': '2437139112d772d71928e074a3a89ff675c051df453e1d5755783a54be5afe4d',
  '0022_retention.sql': '021625d39b7fece4616c7feff9103a7803c0db6f2b2cbd084110a4ef68556c37',
  '0023_daily_limit_per_person.sql':
    'c31299428210873db67da22404ddcede44420769625c68606b6f3db1d231f546',
  '0024_operator_control_and_audit.sql':
    'a5308b7f99668c744f2a774c05080c384e85219236c1c748582794725cd82558',
  '0025_metrics_indexes.sql': 'ad1b942eeaf0f7ffc3209ebe8d5a205280352ff43394498f9f63c0e9a6493fba',
  '0026_checkout_settings.sql': '8e9fad67ed4d559445ed6e88379b07ed51029ffb98954faf44eec2528fabe409',
  '0028_dashboard_sessions.sql': '5d10528c58a0d8e37170843ad6d46e86fedad8b5101de2064c35ee8f71989e8a',
  '0029_vas_daily_limit.sql': '688bc2445490b7fd1c7ed963f71a84cc45721633797bd5a9ea28bc92d1681c0a',
  '0031_sandbox_inbox_and_lagos_day.sql':
    'e37dc40c6b06baf62fc85332a80df4b9beab71a7b9056ad5c4fb78edef48d200',
};

/**
 * The functions those migrations made. Recorded as made by them when the database is adopted, so
 * the migrator replaces each from its file, and drops any whose file is gone.
 */
const LEGACY_FUNCTIONS = [
  'apply_transfer_batch',
  'apply_vas_batch',
  'audit_events_append_only',
  'beneficiary_save',
  'daily_outbound_add',
  'daily_outbound_give_back',
  'idempotency_claim',
  'idempotency_repoint',
  'ledger_hold',
  'ledger_hold_json',
  'ledger_hold_unlocked',
  'ledger_lock_accounts',
  'ledger_lock_batch',
  'ledger_post',
  'ledger_post_json',
  'ledger_post_unlocked',
  'ledger_void_hold',
  'transfer_item_failure',
  'transfer_limit_day',
  'transfer_place_one',
  'transfer_receive_one',
  'transfer_refuse',
  'transfer_replay_of',
  'transfer_settle_one',
  'ussd_reference_collect',
  'vas_place_one',
  'vas_refuse',
  'vas_settle_one',
  'virtual_account_collect',
  'webhook_enqueue',
];

/**
 * Recognises the legacy migrations' record in schema_migrations (read into `applied`) and
 * replaces it with the baseline's row; answers whether it did. Only a record of all of them,
 * each from the file as merged, is replaced: the baseline's schema is the last one's. Any other
 * legacy record is refused, with what is missing or different.
 */
export async function adoptLegacyLayout(
  tx: Tx,
  applied: ReadonlyMap<string, string>,
  baseline: { readonly name: string; readonly checksum: string },
): Promise<boolean> {
  if (
    applied.has(baseline.name) ||
    ![...applied.keys()].some((name) => name in LEGACY_MIGRATIONS)
  ) {
    return false;
  }
  const problems = recordProblems(applied);
  if (problems.length > 0) {
    throw new Error(
      `This database was made by the migrations OpenIBS had before its baseline, but it is not at the last of them (0031_sandbox_inbox_and_lagos_day.sql): ${problems.join('; ')}. Bring it to that migration with the OpenIBS that made it (any version before the baseline applies the rest when it starts), then start this one.`,
    );
  }
  await tx.query('DELETE FROM schema_migrations');
  await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
    baseline.name,
    baseline.checksum,
  ]);
  await tx.query(
    `INSERT INTO schema_functions (name, checksum)
       SELECT name, 'made by a migration before the baseline' FROM unnest($1::text[]) AS name`,
    [LEGACY_FUNCTIONS],
  );
  return true;
}

/** How a legacy record differs from all the legacy migrations, each from its merged file. */
function recordProblems(applied: ReadonlyMap<string, string>): string[] {
  return [
    ...Object.keys(LEGACY_MIGRATIONS)
      .filter((name) => !applied.has(name))
      .map((name) => `${name} not applied`),
    ...[...applied]
      .filter(
        ([name, checksum]) => name in LEGACY_MIGRATIONS && LEGACY_MIGRATIONS[name] !== checksum,
      )
      .map(([name]) => `${name} applied from another version of the file`),
    ...[...applied.keys()]
      .filter((name) => !(name in LEGACY_MIGRATIONS))
      .map((name) => `${name} unknown`),
  ];
}
