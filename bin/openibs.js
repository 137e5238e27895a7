#!/usr/bin/env node
// A source checkout runs its TypeScript through tsx (a development dependency), so what runs is
// always what is checked out; the installed package has no src/ and runs its compiled dist/.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
}
