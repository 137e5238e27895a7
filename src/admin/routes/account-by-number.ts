import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type AccountService, accountView } from '../../modules/accounts/index.ts';
import { adminContract } from '../contract/index.ts';

export interface AccountByNumberRouteOptions {
  readonly accountService: Pick<AccountService, 'findByNumber'>;
  readonly institutionCode: string;
}

const byNumber = adminContract['GET /admin/accounts/:accountNumber'];

/**
 * GET /admin/accounts/:accountNumber: any client's account by its number, as the client's own
 * API shows it (balances included); what an operator, or a test through `openibs/testing`,
 * looks up first.
 */
export const accountByNumberRoute: FastifyPluginAsyncTypebox<AccountByNumberRouteOptions> = async (
  app,
  { accountService, institutionCode },
) => {
  app.get(
    '/admin/accounts/:accountNumber',
    {
      schema: {
        tags: ['Admin'],
        summary: 'An account by its number, whoever holds it',
        params: byNumber.params,
        response: { 200: byNumber.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const account = await accountService.findByNumber(request.params.accountNumber);
      return ok('Account fetched successfully.', accountView(account, institutionCode));
    },
  );
};
