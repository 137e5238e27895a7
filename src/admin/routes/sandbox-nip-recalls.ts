import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { lienView } from '../../modules/accounts/index.ts';
import { type InboundRecallService, transferView } from '../../modules/transfers/index.ts';
import type { NipSimulator } from '../../rails/nip/nip-simulator.ts';
import { invariant } from '../../shared/invariant.ts';
import { adminContract } from '../contract/index.ts';

const recallCredit = adminContract['POST /admin/sandbox/nip/recalls'];

export interface SandboxNipRecallRouteOptions {
  readonly inboundRecalls: Pick<InboundRecallService, 'findRecallable' | 'find'>;
  /** The simulated NIP network in sandbox; undefined in production. */
  readonly sandboxNetwork: Pick<NipSimulator, 'recallCredit'> | undefined;
}

/**
 * POST /admin/sandbox/nip/recalls: the sending bank recalls a Completed credit it sent. The
 * simulated network delivers the notice the way every recall arrives (rail → inbound recall
 * service), so the answer is the credit as that left it: Reversed, with the lien the account
 * owes if it no longer held the money (docs/sandbox-nip.md, "Recalls").
 */
export const sandboxNipRecallRoute: FastifyPluginAsyncTypebox<
  SandboxNipRecallRouteOptions
> = async (app, { inboundRecalls, sandboxNetwork }) => {
  app.post(
    '/admin/sandbox/nip/recalls',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: the sending bank recalls a Completed credit it sent to an account',
        body: recallCredit.body,
        response: {
          200: recallCredit.answer,
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
      const { sessionId, reason } = request.body;
      // Ours and recallable first, for a clear refusal before the network is asked.
      await inboundRecalls.findRecallable(sessionId);
      await sandboxNetwork.recallCredit(sessionId, reason);
      const outcome = await inboundRecalls.find(sessionId);
      invariant(outcome !== undefined, `recalled credit ${sessionId} is missing`);
      const [lien] = outcome.liens;
      return ok('Credit recalled.', {
        transfer: transferView(outcome.transfer),
        lien: lien === undefined ? null : lienView(lien),
      });
    },
  );
};
