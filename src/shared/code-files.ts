import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The folder that holds the running code and the files it reads at run time (migrations, page
 * assets, the database image): `src/` from a source checkout, `dist/` in the package. A file's
 * own `import.meta.url` cannot say where those are once the package's code is bundled into
 * shared chunks, so this walks up to the first `src` or `dist` folder beside a package.json.
 */
function findCodeRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (path.dirname(folder) !== folder) {
    const name = path.basename(folder);
    if (
      (name === 'src' || name === 'dist') &&
      existsSync(path.join(folder, '..', 'package.json'))
    ) {
      return folder;
    }
    folder = path.dirname(folder);
  }
  throw new Error('OpenIBS cannot find its own code folder (src/ or dist/ beside package.json)');
}

const CODE_ROOT = findCodeRoot();

/** A file or folder (with a trailing slash) the code reads at run time, relative to its root. */
export function codeFile(relative: string): URL {
  const url = pathToFileURL(path.join(CODE_ROOT, relative));
  return relative.endsWith('/') && !url.href.endsWith('/') ? new URL(`${url.href}/`) : url;
}
