import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type TransferReturnService, transferView } from '../../modules/transfers/index.ts';
import type { NipSimulator } from '../../rails/nip/nip-simulator.ts';
import { invariant } from '../../shared/invariant.ts';
import { adminContract } from '../contract/index.ts';

const returnTransfer = adminContract['POST /admin/sandbox/nip/returns'];

export interface SandboxNipReturnRouteOptions {
  readonly transferReturns: Pick<TransferReturnService, 'findReturnable' | 'find'>;
  /** The simulated NIP network in sandbox; undefined in production. */
  readonly sandboxNetwork: Pick<NipSimulator, 'returnTransfer'> | undefined;
}

/**
 * POST /admin/sandbox/nip/returns: the beneficiary bank sends back a Completed NIP transfer. The
 * simulated network records the return and delivers its notice the way every return arrives
 * (rail → transfer return service), so the answer is the transfer as that left it: Reversed,
 * the customer made whole (docs/sandbox-nip.md, "Returns").
 */
export const sandboxNipReturnRoute: FastifyPluginAsyncTypebox<
  SandboxNipReturnRouteOptions
> = async (app, { transferReturns, sandboxNetwork }) => {
  app.post(
    '/admin/sandbox/nip/returns',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: the beneficiary bank returns a Completed outbound NIP transfer',
        body: returnTransfer.body,
        response: {
          200: returnTransfer.answer,
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
      // Ours and returnable first: the network would record a return it cannot deliver.
      await transferReturns.findReturnable(sessionId);
      const answer = await sandboxNetwork.returnTransfer(sessionId, reason);
      if (answer.kind === 'refused') {
        throw new AppError('TRANSFER_NOT_RETURNABLE', answer.message);
      }
      const transfer = await transferReturns.find(sessionId);
      invariant(transfer !== undefined, `returned transfer ${sessionId} is missing`);
      return ok('Transfer returned.', transferView(transfer));
    },
  );
};
