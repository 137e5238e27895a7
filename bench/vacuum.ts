/**
 * What autovacuum does for a deployment, done by the bench where the PostgreSQL server runs
 * without it (this machine's and CI's: `autovacuum = off`). Every posting updates the same few
 * rows (account balances, GL accounts, daily-limit counters) and every hold, purchase and
 * transfer is updated once after its insert; with nothing vacuuming or analysing, the tables
 * keep every dead version and the planner keeps the statistics of the empty tables it saw at
 * migration, and the rows run slower from round to round while (L), on tables of its own that
 * nothing reads by a plan, does not (docs/benchmarks.md, "Transfers: the decay").
 */
import pg from 'pg';

/** VACUUM (ANALYZE) of one bench database, outside the timed part of a run. */
export class BenchVacuum {
  private constructor(private readonly databaseUrl: string) {}

  /**
   * A vacuum for the database at databaseUrl when the bench should do autovacuum's work there:
   * PostgreSQL (undefined: PGlite, which no deployment vacuums either), the server's
   * autovacuum off, and not turned off by --no-vacuum. Undefined otherwise.
   */
  static async open(
    databaseUrl: string | undefined,
    enabled: boolean,
  ): Promise<BenchVacuum | undefined> {
    if (databaseUrl === undefined || !enabled) {
      return undefined;
    }
    const setting = await withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
      return rows[0]?.autovacuum;
    });
    return setting === 'off' ? new BenchVacuum(databaseUrl) : undefined;
  }

  /**
   * VACUUM (ANALYZE) of the whole database; answers the seconds it took. A connection of its
   * own for each, closed after: an idle one would show in the sampler's connection states.
   */
  async run(): Promise<number> {
    const started = performance.now();
    await withClient(this.databaseUrl, (client) => client.query('VACUUM (ANALYZE)'));
    return (performance.now() - started) / 1000;
  }
}

async function withClient<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'openibs-bench-vacuum',
  });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
