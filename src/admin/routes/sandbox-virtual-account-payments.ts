import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { parseAmount } from '../../http/amount.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { InboundCreditService } from '../../modules/transfers/index.ts';
import type { VirtualAccountService } from '../../modules/virtual-accounts/index.ts';
import { virtualAccountTransferView } from '../../modules/virtual-accounts/index.ts';
import type { NipSimulator } from '../../rails/nip/nip-simulator.ts';
import { invariant } from '../../shared/invariant.ts';
import type { Kobo } from '../../shared/money.ts';
import { adminContract } from '../contract/index.ts';

const pay = adminContract['POST /admin/sandbox/virtual-account-payments'];
const SANDBOX_PAYER = { name: 'SANDBOX PAYER', accountNumber: '0123456789', bankCode: '000013' };

export interface SandboxVirtualAccountPaymentRouteOptions {
  readonly virtualAccountService: Pick<VirtualAccountService, 'findByNumber'>;
  readonly inboundCredits: Pick<InboundCreditService, 'find'>;
  /** The simulated NIP network in sandbox; undefined in production. */
  readonly sandboxNetwork: NipSimulator | undefined;
  readonly maxAmountKobo: Kobo;
}

/**
 * POST /admin/sandbox/virtual-account-payments: a customer of another bank pays a virtual
 * account over the simulated NIP network, delivered the way every inbound credit arrives. The
 * scenario makes the network deliver it late (after the account's expiry) or twice under one
 * session id (docs/virtual-accounts.md, "Sandbox").
 */
export const sandboxVirtualAccountPaymentRoute: FastifyPluginAsyncTypebox<
  SandboxVirtualAccountPaymentRouteOptions
> = async (app, { virtualAccountService, inboundCredits, sandboxNetwork, maxAmountKobo }) => {
  app.post(
    '/admin/sandbox/virtual-account-payments',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: pay a virtual account from another bank over the simulated NIP network',
        body: pay.body,
        response: {
          201: pay.answer,
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
      const account = await virtualAccountService.findByNumber(body.accountNumber);
      if (account === undefined) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      const scenario = body.scenario ?? 'onTime';
      const credit = {
        beneficiaryAccountNumber: body.accountNumber,
        amountKobo: parseAmount(body.amount, maxAmountKobo),
        ...(body.narration === undefined ? {} : { narration: body.narration }),
        originator: {
          accountName: body.payerName ?? SANDBOX_PAYER.name,
          accountNumber: body.payerAccountNumber ?? SANDBOX_PAYER.accountNumber,
          bankCode: body.payerBankCode ?? SANDBOX_PAYER.bankCode,
        },
        // Late: the network received it a second after the account expired.
        ...(scenario === 'afterExpiry'
          ? { receivedAt: new Date(account.expiresAt.getTime() + 1000) }
          : {}),
      };
      const { sessionId } = await sandboxNetwork.sendInboundCredit(credit);
      if (scenario === 'duplicateSession') {
        // The network delivers the same session again: it answers the first and moves nothing.
        await sandboxNetwork.sendInboundCredit({ ...credit, sessionId });
      }
      // Delivered means accepted (a refusal throws): the payment is the session's credit.
      const transfer = await inboundCredits.find(sessionId);
      invariant(transfer !== undefined, `payment ${sessionId} was accepted but is missing`);
      return reply
        .status(201)
        .send(
          ok(
            'Virtual account payment received successfully.',
            virtualAccountTransferView(transfer, account),
            201,
          ),
        );
    },
  );
};
