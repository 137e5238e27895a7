import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import { parseAmount } from '../../http/amount.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import {
  findUssdBank,
  type UssdDialOutcome,
  type UssdGatewaySimulator,
  type UssdService,
  ussdReferenceView,
} from '../../modules/ussd/index.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Kobo } from '../../shared/money.ts';
import { adminContract } from '../contract/index.ts';

const dial = adminContract['POST /admin/sandbox/ussd-dials'];

export interface SandboxUssdDialRouteOptions {
  readonly ussdService: Pick<UssdService, 'findByReference' | 'get'>;
  /** The simulated USSD gateway in sandbox; undefined in production. */
  readonly sandboxUssdGateway: UssdGatewaySimulator | undefined;
  readonly institutionCode: string;
  readonly clock: Clock;
  readonly maxAmountKobo: Kobo;
}

const MESSAGES: Readonly<Record<UssdDialOutcome['kind'], string>> = {
  paid: 'The customer paid the reference.',
  declined: "The customer's bank declined the payment; nothing moved.",
  noticeLost:
    "The customer paid, but the gateway's notice was lost: a status query will find the payment.",
  reversed: 'The bank refused the payment; the gateway returned the money to the customer.',
  unknownReference: 'The gateway does not know this reference.',
};

/**
 * POST /admin/sandbox/ussd-dials: a customer dials a USSD reference at their bank and approves
 * the debit; the simulated gateway reports the payment as a real one would. The reference's
 * amount picks the outcome (docs/ussd.md, "Sandbox"); `amount` makes the bank debit another sum.
 */
export const sandboxUssdDialRoute: FastifyPluginAsyncTypebox<SandboxUssdDialRouteOptions> = async (
  app,
  { ussdService, sandboxUssdGateway, institutionCode, clock, maxAmountKobo },
) => {
  app.post(
    '/admin/sandbox/ussd-dials',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: a customer dials a USSD reference and pays it at their bank',
        body: dial.body,
        response: {
          200: dial.answer,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
        },
      },
    },
    async (request) => {
      if (sandboxUssdGateway === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      const body = request.body;
      const reference = await ussdService.findByReference(body.reference);
      if (reference === undefined) {
        throw recordNotFound();
      }
      const bankCode = body.ussdBankCode ?? reference.ussdBankCode;
      if (findUssdBank(bankCode) === undefined) {
        const message = 'must be the ussdBankCode of a bank in GET /ussd-payment/banks';
        throw new AppError('VALIDATION_ERROR', `ussdBankCode ${message}.`, {
          details: [{ field: 'ussdBankCode', message }],
        });
      }
      const outcome = await sandboxUssdGateway.dial({
        reference: body.reference,
        ussdBankCode: bankCode,
        ...(body.amount === undefined
          ? {}
          : { amountKobo: parseAmount(body.amount, maxAmountKobo) }),
      });
      if (outcome.kind === 'unknownReference') {
        throw recordNotFound();
      }
      const after = await ussdService.get(reference, reference.reference);
      const view = ussdReferenceView(
        after.reference,
        { institutionCode, now: clock.now() },
        after.paidBy,
      );
      return ok(MESSAGES[outcome.kind], {
        outcome: outcome.kind,
        ...('notice' in outcome ? { sessionId: outcome.notice.sessionId } : {}),
        ...(outcome.kind === 'reversed' ? { code: outcome.code, reason: outcome.message } : {}),
        ...(outcome.kind === 'declined' ? { reason: outcome.message } : {}),
        reference: view,
      });
    },
  );
};
