import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { FixturesService } from '../../sandbox/fixtures/index.ts';
import { adminContract } from '../contract/index.ts';

export interface SandboxFixturesRouteOptions {
  /** The sandbox's fixtures; undefined in production. */
  readonly sandboxFixtures: Pick<FixturesService, 'apply' | 'inForce'> | undefined;
}

/** A fixtures document with many clients and their keys is larger than an API request. */
const FIXTURES_BODY_LIMIT = 4 * 1024 * 1024;
const loadFixtures = adminContract['POST /admin/sandbox/fixtures'];
const readFixtures = adminContract['GET /admin/sandbox/fixtures'];

/**
 * POST /admin/sandbox/fixtures: checks a fixtures document whole (400 naming every problem by
 * its JSON path, nothing loaded), makes it the fixtures in force and resets the bank to it.
 * GET: the fixtures in force (docs/fixtures.md).
 */
export const sandboxFixturesRoutes: FastifyPluginAsyncTypebox<SandboxFixturesRouteOptions> = async (
  app,
  { sandboxFixtures },
) => {
  app.post(
    '/admin/sandbox/fixtures',
    {
      bodyLimit: FIXTURES_BODY_LIMIT,
      // The schema is for the reference only: the service checks the document itself, so that
      // every problem is named (not the first) and an unknown key is reported, not dropped.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: load fixtures and reset the bank to them',
        body: loadFixtures.body,
        response: {
          200: loadFixtures.answer,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
        },
      },
    },
    async (request) => {
      if (sandboxFixtures === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      const summary = await sandboxFixtures.apply(request.body);
      return ok('Fixtures loaded; the bank was reset to them.', summary);
    },
  );

  app.get(
    '/admin/sandbox/fixtures',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: the fixtures in force',
        response: { 200: readFixtures.answer, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async () => {
      if (sandboxFixtures === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      return ok('Fixtures in force.', sandboxFixtures.inForce());
    },
  );
};
