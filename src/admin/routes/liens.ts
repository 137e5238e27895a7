import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type AccountService, lienView } from '../../modules/accounts/index.ts';
import type { LienService } from '../../modules/transfers/index.ts';
import { adminContract } from '../contract/index.ts';
import { operatorName } from '../operator-audit.ts';

const list = adminContract['GET /admin/accounts/:accountNumber/liens'];
const release = adminContract['POST /admin/liens/:id/release'];

export interface LienRoutesOptions {
  readonly accountService: Pick<AccountService, 'findByNumber'>;
  readonly liens: Pick<LienService, 'list' | 'release'>;
}

/**
 * GET /admin/accounts/:accountNumber/liens: any account's liens, oldest first.
 * POST /admin/liens/:id/release: an operator releases an active lien; what it still owes is
 * written off, the lien records the operator's X-Operator label, the audit trail the call
 * (docs/api.md, "Liens").
 */
export const lienRoutes: FastifyPluginAsyncTypebox<LienRoutesOptions> = async (
  app,
  { accountService, liens },
) => {
  app.get(
    '/admin/accounts/:accountNumber/liens',
    {
      schema: {
        tags: ['Admin'],
        summary: "An account's liens: what it owes the bank, and why",
        params: list.params,
        response: { 200: list.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const account = await accountService.findByNumber(request.params.accountNumber);
      const found = await liens.list(account.id);
      return ok('Liens fetched successfully.', found.map(lienView));
    },
  );
  app.post(
    '/admin/liens/:id/release',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Release a lien: what the account still owes under it is written off',
        params: release.params,
        body: release.body,
        response: { 200: release.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const released = await liens.release(request.params.id, {
        operator: operatorName(request),
        reason: request.body.reason.trim(),
      });
      return ok('Lien released.', lienView(released));
    },
  );
};
