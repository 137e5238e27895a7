import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type AccountService, accountView } from '../../modules/accounts/index.ts';
import { adminContract } from '../contract/index.ts';

export interface AccountFreezeRoutesOptions {
  readonly accountService: Pick<AccountService, 'setFrozen'>;
  readonly institutionCode: string;
}

/**
 * POST /admin/accounts/:accountNumber/freeze and /unfreeze: an operator stops every movement on
 * an account (debits and credits answer 402 ACCOUNT_NOT_ACTIVE) and lets it move again.
 */
export const accountFreezeRoutes: FastifyPluginAsyncTypebox<AccountFreezeRoutesOptions> = async (
  app,
  { accountService, institutionCode },
) => {
  for (const [action, frozen] of [
    ['freeze', true],
    ['unfreeze', false],
  ] as const) {
    const route = adminContract[`POST /admin/accounts/:accountNumber/${action}`];
    app.post(
      `/admin/accounts/:accountNumber/${action}`,
      {
        schema: {
          tags: ['Admin'],
          summary: frozen
            ? 'Freeze an account: no debit and no credit until it is unfrozen'
            : 'Unfreeze a frozen account',
          params: route.params,
          response: {
            200: route.answer,
            400: ErrorSchema,
            401: ErrorSchema,
            402: ErrorSchema,
          },
        },
      },
      async (request) => {
        const account = await accountService.setFrozen(request.params.accountNumber, frozen);
        return ok(
          frozen ? 'Account frozen successfully.' : 'Account unfrozen successfully.',
          accountView(account, institutionCode),
        );
      },
    );
  }
};
