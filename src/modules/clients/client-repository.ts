import type { Queryable } from '../../db/db.ts';

export interface ClientRecord {
  readonly id: string;
  readonly name: string;
  readonly emailAddress: string | null;
  readonly mainAccountId: string | null;
  readonly createdAt: Date;
}

interface ClientRow {
  id: string;
  name: string;
  email_address: string | null;
  main_account_id: string | null;
  created_at: Date;
}

export async function insertClient(
  db: Queryable,
  client: { id: string; name: string; emailAddress: string | null; createdAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO clients (id, name, email_address, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4)`,
    [client.id, client.name, client.emailAddress, client.createdAt],
  );
}

export async function setMainAccount(db: Queryable, clientId: string, accountId: string) {
  await db.query('UPDATE clients SET main_account_id = $2 WHERE id = $1', [clientId, accountId]);
}

export async function findClient(
  db: Queryable,
  clientId: string,
): Promise<ClientRecord | undefined> {
  const rows = await db.query<ClientRow>(
    'SELECT id, name, email_address, main_account_id, created_at FROM clients WHERE id = $1',
    [clientId],
  );
  return rows[0] === undefined ? undefined : toClient(rows[0]);
}

/** Every client's id (a sandbox reset tells the revocation list whose tokens end with it). */
export async function listClientIds(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM clients');
  return rows.map((row) => row.id);
}

/** Every client, newest first (operator use). */
export async function listClients(
  db: Queryable,
  page: { offset: number; limit: number },
): Promise<{ clients: ClientRecord[]; total: number }> {
  const [rows, counts] = await Promise.all([
    db.query<ClientRow>(
      `SELECT id, name, email_address, main_account_id, created_at FROM clients
        ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT $2`,
      [page.offset, page.limit],
    ),
    db.query<{ total: bigint }>('SELECT count(*) AS total FROM clients'),
  ]);
  return { clients: rows.map(toClient), total: Number(counts[0]?.total ?? 0n) };
}

function toClient(row: ClientRow): ClientRecord {
  return {
    id: row.id,
    name: row.name,
    emailAddress: row.email_address,
    mainAccountId: row.main_account_id,
    createdAt: row.created_at,
  };
}

/** The email addresses of some clients (alerts for their main accounts), by client id. */
export async function findClientEmails(
  db: Queryable,
  clientIds: readonly string[],
): Promise<Map<string, string | null>> {
  const rows = await db.query<{ id: string; email_address: string | null }>(
    'SELECT id, email_address FROM clients WHERE id = ANY($1)',
    [clientIds],
  );
  return new Map(rows.map((row) => [row.id, row.email_address]));
}
