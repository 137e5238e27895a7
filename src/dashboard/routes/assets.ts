import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { codeFile } from '../../shared/code-files.ts';
import { DASHBOARD_PATH } from '../session.ts';

const ASSETS = codeFile('dashboard/assets/');
const FILES: Readonly<Record<string, string>> = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'application/javascript; charset=utf-8',
};

/** The dashboard's own stylesheet and script: no external asset, so it works offline. */
export const assetRoutes: FastifyPluginAsync = async (app) => {
  const contents = new Map(
    Object.keys(FILES).map((name) => [name, readFileSync(new URL(name, ASSETS), 'utf8')]),
  );
  app.get<{ Params: { name: string } }>(
    `${DASHBOARD_PATH}/assets/:name`,
    { schema: { hide: true } },
    async (request, reply) => {
      const body = contents.get(request.params.name);
      const type = FILES[request.params.name];
      if (body === undefined || type === undefined) {
        return reply.callNotFound();
      }
      return reply.type(type).header('cache-control', 'public, max-age=300').send(body);
    },
  );
};
