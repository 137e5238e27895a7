import { readFile } from 'node:fs/promises';
import type { CliCommand } from './admin-call.ts';
import type { CliContext } from './cli-context.ts';

/**
 * `openibs start [--memory] [--port N] [--host H] [--fixtures FILE] [--json]`: runs the server
 * in this process until SIGINT or SIGTERM. `--memory` keeps everything in memory (nothing is
 * read from or written to DATA_DIR); `--port 0` takes a free port. `--json` prints one line a
 * parent process can read (the test bench's child-process mode); otherwise a banner.
 */
export const START_COMMAND: CliCommand = {
  usage:
    'start [--memory] [--port N] [--host H] [--fixtures FILE] [--json]   run the server ' +
    '(--memory: nothing on disk; --port 0: a free port)',
  async run(context) {
    const port = portOption(context);
    const fixtures = await readFixtures(context);
    // Loaded only for this command: every other command is a small HTTP client.
    const { startServer } = await import('../start.ts');
    const closeWithGrace = (await import('close-with-grace')).default;
    const json = context.options.json === true;
    const server = await startServer({
      memory: context.options.memory === true,
      // With --json, standard output carries the one line a parent process reads.
      ...(json ? { logger: { level: 'warn', stream: process.stderr } } : {}),
      ...(port === undefined ? {} : { port }),
      ...(typeof context.options.host === 'string' ? { host: context.options.host } : {}),
      // With fixtures, they are the whole world: no demo client to make and then remove.
      demoClient: fixtures === undefined,
    });
    closeWithGrace({ delay: 10_000 }, () => server.close());
    if (fixtures !== undefined) {
      const loaded = await server.app.inject({
        method: 'POST',
        url: '/admin/sandbox/fixtures',
        headers: { authorization: `Bearer ${server.secrets.adminToken}`, 'x-operator': 'cli' },
        payload: fixtures as Record<string, unknown>,
      });
      if (loaded.statusCode !== 200) {
        await server.close();
        throw new Error(`the fixtures were refused (${loaded.statusCode}): ${loaded.body}`);
      }
    }
    const ready = {
      url: server.url,
      port: server.port,
      adminToken: server.secrets.adminToken,
      demo: server.demo,
    };
    return json ? JSON.stringify(ready) : startBanner(ready);
  },
};

function portOption(context: CliContext): number | undefined {
  const text = context.options.port;
  if (text === undefined) {
    return undefined;
  }
  const port = Number(text);
  if (typeof text !== 'string' || !/^\d{1,5}$/.test(text) || port > 65_535) {
    throw new Error('--port must be a port number (0 picks a free one)');
  }
  return port;
}

async function readFixtures(context: CliContext): Promise<unknown> {
  const file = context.options.fixtures;
  if (typeof file !== 'string') {
    return undefined;
  }
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`--fixtures ${file}: ${error instanceof Error ? error.message : error}`);
  }
}

function startBanner(ready: {
  url: string;
  adminToken: string;
  demo: { ibsClientId: string; oauthClientId: string; mainAccountNumber: string } | undefined;
}): string {
  return [
    `OpenIBS sandbox is running at ${ready.url}`,
    `  admin token:      ${ready.adminToken}`,
    ...(ready.demo === undefined
      ? []
      : [
          `  demo client:      OAuth client id ${ready.demo.oauthClientId}`,
          `                    ibs_client_id ${ready.demo.ibsClientId} (the ClientID header)`,
          `  main account:     ${ready.demo.mainAccountNumber}`,
        ]),
  ].join('\n');
}
