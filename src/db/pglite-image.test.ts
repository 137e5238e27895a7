import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPgliteDb } from './pglite-db.ts';
import { migratedImage } from './pglite-image.ts';

describe('the migrated PGlite image', () => {
  it('carries the few WAL segments its checkpoint needs, not the migrations’ seven', async () => {
    const db = await createPgliteDb({ dataDir: undefined, image: (await migratedImage()).tarball });
    try {
      const [segments] = await db.query<{ count: number; bytes: number }>(
        'SELECT count(*)::int AS count, sum(size)::int AS bytes FROM pg_ls_waldir()',
      );
      // Every database a test or an in-memory sandbox opens loads the image's files first.
      assert.ok(segments !== undefined && segments.count <= 4, `${segments?.count} WAL segments`);
      assert.ok(segments.bytes <= 4 * 1024 * 1024);
    } finally {
      await db.close();
    }
  });
});
