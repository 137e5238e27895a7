import type { Queryable } from '../../db/db.ts';
import type { CheckoutSettings } from './checkout-settings.ts';

interface SettingsRow {
  client_id: string;
  allowed_origins: string[];
  webhook_urls: string[];
  updated_at: Date;
}

function toSettings(row: SettingsRow): CheckoutSettings {
  return {
    clientId: row.client_id,
    allowedOrigins: row.allowed_origins,
    webhookUrls: row.webhook_urls,
    updatedAt: new Date(row.updated_at),
  };
}

/** The client's checkout settings; none registered reads as empty lists. */
export async function findSettings(db: Queryable, clientId: string): Promise<CheckoutSettings> {
  const rows = await db.query<SettingsRow>('SELECT * FROM checkout_settings WHERE client_id = $1', [
    clientId,
  ]);
  const row = rows[0];
  return row === undefined
    ? { clientId, allowedOrigins: [], webhookUrls: [], updatedAt: null }
    : toSettings(row);
}

/** Replaces the client's settings with these lists. */
export async function saveSettings(
  db: Queryable,
  settings: { clientId: string; allowedOrigins: string[]; webhookUrls: string[]; now: Date },
): Promise<CheckoutSettings> {
  const rows = await db.query<SettingsRow>(
    `INSERT INTO checkout_settings (client_id, allowed_origins, webhook_urls, updated_at)
     VALUES ($1, $2::text[], $3::text[], $4)
     ON CONFLICT (client_id) DO UPDATE
       SET allowed_origins = excluded.allowed_origins, webhook_urls = excluded.webhook_urls,
           updated_at = excluded.updated_at
     RETURNING *`,
    [settings.clientId, settings.allowedOrigins, settings.webhookUrls, settings.now],
  );
  return toSettings(rows[0] as SettingsRow);
}
