import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { codeFile } from '../shared/code-files.ts';
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
  /** An uncompressed tar, typed so PGlite reads it without guessing (and decompressing twice). */
  readonly tarball: Blob;
}

const inflate = promisify(gunzip);
const deflate = promisify(gzip);

const SHIPPED_IMAGE = codeFile('db/pglite-image.tar.gz');
const SHIPPED_FINGERPRINT = codeFile('db/pglite-image.json');

/** Names and checksums of every migration and function file: what an image was made from. */
export async function migrationsFingerprint(): Promise<string> {
  const { migrations, functions } = await loadSqlSource();
  const hash = createHash('sha256');
  // Bumped when the way an image is made changes, so images made the old way are not reused.
  hash.update('image-format:3\n');
  for (const file of [...migrations, ...functions]) {
    hash.update(`${file.name}:${file.checksum}\n`);
  }
  return hash.digest('hex');
}

let loaded: Promise<MigratedImage> | undefined;

/**
 * The image for the current migrations: shipped, cached, or made now (and cached); read once per
 * process (a test process opens many databases).
 */
export function migratedImage(): Promise<MigratedImage> {
  loaded ??= findOrMakeImage().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function findOrMakeImage(): Promise<MigratedImage> {
  const fingerprint = await migrationsFingerprint();
  const shipped = await readImage(SHIPPED_IMAGE, SHIPPED_FINGERPRINT, fingerprint);
  if (shipped !== undefined) {
    return shipped;
  }
  // Kept uncompressed (some 19 MB): every test process of a suite starts from it, and inflating
  // the gzip took ~140 ms of each one's CPU.
  const cacheFile = path.join(tmpdir(), 'openibs-pglite-images', `${fingerprint}.tar`);
  const cached = await readFile(cacheFile).catch(() => undefined);
  if (cached !== undefined) {
    return { fingerprint, tarball: tarBlob(cached) };
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
  // 1 MB WAL segments instead of 16: the image carries a few segments, not a 16 MB file of zeros.
  // The smallest WAL size the server takes: its checkpoint then keeps 4 of them, where the
  // default (80 MB) kept the 7 the migrations wrote, ~70 ms of every copy's start (3 MB more to
  // load; docs/testing-with-openibs.md).
  const pglite = await PGlite.create({
    initDbStartParams: ['--wal-segsize=1'],
    startParams: [...PGlite.defaultStartParams, '-c', 'min_wal_size=2MB', '-c', 'max_wal_size=2MB'],
  });
  try {
    await migrate(wrapPglite(pglite));
    await compact(pglite);
    const dumped = await pglite.dumpDataDir('none');
    const tarball = new Blob([await dumped.arrayBuffer()], { type: 'application/x-tar' });
    return { fingerprint: fingerprint ?? (await migrationsFingerprint()), tarball };
  } finally {
    await pglite.close();
  }
}

/**
 * Leaves only what OpenIBS runs on: the two template databases are never used (the embedded
 * database never creates another) and were half of every start's copying; a checkpoint lets the
 * image start without replaying the migrations' WAL.
 */
async function compact(pglite: PGlite): Promise<void> {
  await pglite.exec(
    "UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')",
  );
  await pglite.exec('DROP DATABASE template0');
  await pglite.exec('DROP DATABASE template1');
  await pglite.exec('CHECKPOINT');
}

async function gzipped(image: MigratedImage): Promise<Buffer> {
  return deflate(Buffer.from(await image.tarball.arrayBuffer()));
}

async function tarFromGzip(gzip: Buffer): Promise<Blob> {
  return tarBlob(await inflate(gzip));
}

function tarBlob(tar: Buffer): Blob {
  return new Blob([tar], { type: 'application/x-tar' });
}

/**
 * Writes the shipped image beside the migrations (scripts/build.js, on the compiled code).
 * @public
 */
export async function writeShippedImage(directory: string): Promise<MigratedImage> {
  const image = await makeImage();
  await writeFile(path.join(directory, 'pglite-image.tar.gz'), await gzipped(image));
  await writeFile(
    path.join(directory, 'pglite-image.json'),
    `${JSON.stringify({ fingerprint: image.fingerprint }, null, 2)}\n`,
  );
  return image;
}

async function readImage(
  file: URL,
  fingerprintFile: URL,
  fingerprint: string,
): Promise<MigratedImage | undefined> {
  try {
    const made = JSON.parse(await readFile(fingerprintFile, 'utf8')) as { fingerprint?: string };
    if (made.fingerprint !== fingerprint) {
      return undefined;
    }
    return { fingerprint, tarball: await tarFromGzip(await readFile(file)) };
  } catch {
    return undefined;
  }
}
