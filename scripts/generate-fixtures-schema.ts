/**
 * npm run fixtures:schema: writes schemas/fixtures.schema.json, the published JSON Schema of
 * sandbox fixtures files, from the TypeBox schema the server checks them with. A test fails
 * when the file is not what this writes (src/sandbox/fixtures/fixtures-schema.test.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixturesJsonSchema } from '../src/sandbox/fixtures/index.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const file = path.join(root, 'schemas', 'fixtures.schema.json');
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, fixturesJsonSchema());
process.stdout.write(`Wrote ${path.relative(root, file)}\n`);
