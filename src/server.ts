import closeWithGrace from 'close-with-grace';
import { ConfigError } from './config/config.ts';
import { sandboxBanner } from './sandbox/banner.ts';
import { startServer } from './start.ts';

/** Process entry (`npm start`): starts OpenIBS and closes it on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const server = await startOrExit();
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err !== undefined) {
      server.app.log.error({ err }, 'shutting down after an error');
    } else {
      server.app.log.info({ signal }, 'shutting down');
    }
    await server.close();
  });
  const { config, services, demo } = server;
  if (demo !== undefined && demo.privateKeyFile !== undefined) {
    const dashboardLink = config.exposure.dashboardEnabled
      ? `${config.publicBaseUrl}/dashboard/login/${services.dashboardLoginLinks.issue().ticket}`
      : undefined;
    process.stdout.write(
      sandboxBanner(
        config,
        server.secrets.adminToken,
        { ...demo, baseUrl: server.url, privateKeyFile: demo.privateKeyFile },
        demo.created,
        dashboardLink,
      ),
    );
  }
}

async function startOrExit() {
  try {
    return await startServer();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`OpenIBS refuses to start: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

await main();
