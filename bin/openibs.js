#!/usr/bin/env node
// The CLI is TypeScript run through tsx, like the server, so there is no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
