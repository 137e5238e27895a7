import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { NipSimulator } from '../../rails/nip/nip-simulator.ts';
import { adminContract } from '../contract/index.ts';

const queueOutcome = adminContract['POST /admin/sandbox/nip/next-outcome'];

export interface SandboxNipOutcomeRouteOptions {
  /** The simulated NIP network in sandbox; undefined in production. */
  readonly sandboxNetwork: Pick<NipSimulator, 'queueOutcome'> | undefined;
}

/**
 * POST /admin/sandbox/nip/next-outcome: the next outbound NIP transfer the simulator receives
 * gets this outcome, whatever its kobo (docs/sandbox-nip.md). Outcomes queue up, first in first
 * out, in this process's simulator; the kobo rule applies again once the queue is empty.
 */
export const sandboxNipOutcomeRoute: FastifyPluginAsyncTypebox<
  SandboxNipOutcomeRouteOptions
> = async (app, { sandboxNetwork }) => {
  app.post(
    '/admin/sandbox/nip/next-outcome',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: queue the outcome of the next outbound NIP transfer',
        body: queueOutcome.body,
        response: {
          200: queueOutcome.answer,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
        },
      },
    },
    async (request) => {
      if (sandboxNetwork === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      const queue = sandboxNetwork.queueOutcome(request.body.responseCode);
      return ok('NIP outcome queued.', { queue: [...queue] });
    },
  );
};
