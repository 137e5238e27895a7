import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { parseAmount } from '../../http/amount.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type InboundCreditService, transferView } from '../../modules/transfers/index.ts';
import type { NipSimulator } from '../../rails/nip/nip-simulator.ts';
import { invariant } from '../../shared/invariant.ts';
import type { Kobo } from '../../shared/money.ts';
import { adminContract } from '../contract/index.ts';

const credit = adminContract['POST /admin/sandbox/credits'];

const SANDBOX_SENDER = {
  name: 'SANDBOX SENDER',
  accountNumber: '0123456789',
  bankCode: '000013',
};

/**
 * POST /admin/sandbox/credits: another bank sends money over the simulated NIP network, which
 * delivers it the way every inbound credit arrives (rail → inbound credit service).
 */
export interface SandboxCreditRouteOptions {
  readonly inboundCredits: Pick<InboundCreditService, 'find'>;
  /** The simulated NIP network in sandbox; undefined in production. */
  readonly sandboxNetwork: NipSimulator | undefined;
  readonly maxAmountKobo: Kobo;
}

export const sandboxCreditRoute: FastifyPluginAsyncTypebox<SandboxCreditRouteOptions> = async (
  app,
  { inboundCredits, sandboxNetwork, maxAmountKobo },
) => {
  app.post(
    '/admin/sandbox/credits',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: credit an account as an inbound NIP transfer from another bank',
        body: credit.body,
        response: {
          201: credit.answer,
          400: ErrorSchema,
          401: ErrorSchema,
          402: ErrorSchema,
          403: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (sandboxNetwork === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      const body = request.body;
      const { sessionId } = await sandboxNetwork.sendInboundCredit({
        beneficiaryAccountNumber: body.accountNumber,
        amountKobo: parseAmount(body.amount, maxAmountKobo),
        ...(body.narration === undefined ? {} : { narration: body.narration }),
        originator: {
          accountName: body.senderName ?? SANDBOX_SENDER.name,
          accountNumber: body.senderAccountNumber ?? SANDBOX_SENDER.accountNumber,
          bankCode: body.senderBankCode ?? SANDBOX_SENDER.bankCode,
        },
      });
      const transfer = await inboundCredits.find(sessionId);
      invariant(transfer !== undefined, `credit ${sessionId} was delivered but is missing`);
      return reply
        .status(201)
        .send(ok('Credit received successfully.', transferView(transfer), 201));
    },
  );
};
