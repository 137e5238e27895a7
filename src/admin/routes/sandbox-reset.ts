import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { FixturesService } from '../../sandbox/fixtures/index.ts';
import { adminContract } from '../contract/index.ts';

export interface SandboxResetRouteOptions {
  /** The sandbox's fixtures; undefined in production. */
  readonly sandboxFixtures: Pick<FixturesService, 'reset'> | undefined;
}

/**
 * POST /admin/sandbox/reset (no body): the bank goes back to the fixtures in force, without a
 * restart: every record clients made, the ledger, the outbox, idempotency keys, rate-limit
 * counts and the simulators' state go; the fixtures' world comes back (docs/fixtures.md).
 */
export const sandboxResetRoute: FastifyPluginAsyncTypebox<SandboxResetRouteOptions> = async (
  app,
  { sandboxFixtures },
) => {
  app.post(
    '/admin/sandbox/reset',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: reset the bank to its fixtures',
        response: {
          200: adminContract['POST /admin/sandbox/reset'].answer,
          401: ErrorSchema,
          403: ErrorSchema,
        },
      },
    },
    async () => {
      if (sandboxFixtures === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      return ok('The bank was reset to its fixtures.', await sandboxFixtures.reset());
    },
  );
};
