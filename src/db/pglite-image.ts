import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { loadSqlSource, migrate } from './migrate.ts';
import { wrapPglite } from './pglite-db.ts';

/**
 * A migrated, empty embedded database as a PGlite data-directory tarball. Starting from it skips
 * initdb and every migration, which is most of an in-memory start. The package ships one built
 * from its own migrations (`npm run build`); a source checkout builds one on first use and keeps
 * it in the system's temporary folder. Either is used only when it was made from exactly the
 * migrations this code has.
 */
export interface MigratedImage {
  readonly fingerprint: string;
  readonly tarball: Blob;
}

const SHIPPED_IMAGE = fileURLToPath(new URL('./pglite-image.tar.gz', import.meta.url));
const SHIPPED_FINGERPRINT = fileURLToPath(new URL('./pglite-image.json', import.meta.url));

/** Names and checksums of every migration and function file: what an image was made from. */
export async function migrationsFingerprint(): Promise<string> {
  const { migrations, functions } = await loadSqlSource();
  const hash = createHash('sha256');
  for (const file of [...migrations, ...functions]) {
    hash.update(`${file.name}:${file.checksum}\n`);
  }
  return hash.digest('hex');
}

/** The image for the current migrations: shipped, cached, or made now (and cached). */
export async function migratedImage(): Promise<MigratedImage> {
  const fingerprint = await migrationsFingerprint();
  const shipped = await readImage(SHIPPED_IMAGE, SHIPPED_FINGERPRINT, fingerprint);
  if (shipped !== undefined) {
    return shipped;
  }
  const cacheFile = path.join(tmpdir(), 'openibs-pglite-images', `${fingerprint}.tar.gz`);
  const cached = await readFile(cacheFile).catch(() => undefined);
  if (cached !== undefined) {
    return { fingerprint, tarball: new Blob([cached]) };
  }
  const image = await makeImage(fingerprint);
  await mkdir(path.dirname(cacheFile), { recursive: true });
  // Written aside, then renamed: a process reading the cache never sees half a file.
  const partial = `${cacheFile}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await image.tarball.arrayBuffer()));
  await rename(partial, cacheFile);
  return image;
}

/** Builds an image from scratch: a fresh database, every migration, dumped. */
export async function makeImage(fingerprint?: string): Promise<MigratedImage> {
  const pglite = await PGlite.create();
  try {
    await migrate(wrapPglite(pglite));
    const tarball = await pglite.dumpDataDir('gzip');
    return { fingerprint: fingerprint ?? (await migrationsFingerprint()), tarball };
  } finally {
    await pglite.close();
  }
}

/**
 * Writes the shipped image beside the migrations (scripts/build.js, on the compiled code).
 * @public
 */
export async function writeShippedImage(directory: string): Promise<MigratedImage> {
  const image = await makeImage();
  await writeFile(
    path.join(directory, 'pglite-image.tar.gz'),
    Buffer.from(await image.tarball.arrayBuffer()),
  );
  await writeFile(
    path.join(directory, 'pglite-image.json'),
    `${JSON.stringify({ fingerprint: image.fingerprint }, null, 2)}\n`,
  );
  return image;
}

async function readImage(
  file: string,
  fingerprintFile: string,
  fingerprint: string,
): Promise<MigratedImage | undefined> {
  try {
    const made = JSON.parse(await readFile(fingerprintFile, 'utf8')) as { fingerprint?: string };
    if (made.fingerprint !== fingerprint) {
      return undefined;
    }
    return { fingerprint, tarball: new Blob([await readFile(file)]) };
  } catch {
    return undefined;
  }
}
