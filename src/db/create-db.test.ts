import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../config/config.ts';
import { createDb } from './create-db.ts';
import { loadSqlSource } from './migrate.ts';

describe('createDb on embedded PGlite under DATA_DIR', () => {
  const folders: string[] = [];
  after(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

  async function dataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'openibs-create-db-'));
    folders.push(dir);
    return dir;
  }

  it('a new folder starts as the migrated image: every migration recorded before any runs', async () => {
    const dir = await dataDir();
    const db = await createDb(loadConfig({ DATA_DIR: dir }));
    try {
      const { migrations } = await loadSqlSource();
      const applied = await db.query<{ name: string }>('SELECT name FROM schema_migrations');
      assert.deepEqual(
        applied.map((row) => row.name).sort(),
        migrations.map((migration) => migration.name).sort(),
      );
    } finally {
      await db.close();
    }
    assert.ok((await readdir(path.join(dir, 'pglite'))).includes('PG_VERSION'));
  });

  it('a folder with a database is opened as it is, with what was written in it', async () => {
    const dir = await dataDir();
    const first = await createDb(loadConfig({ DATA_DIR: dir }));
    await first.exec('CREATE TABLE kept_between_starts (note text)');
    await first.query('INSERT INTO kept_between_starts VALUES ($1)', ['written before a restart']);
    await first.close();
    const again = await createDb(loadConfig({ DATA_DIR: dir }));
    try {
      const rows = await again.query<{ note: string }>('SELECT note FROM kept_between_starts');
      assert.deepEqual(rows, [{ note: 'written before a restart' }]);
    } finally {
      await again.close();
    }
  });
});
