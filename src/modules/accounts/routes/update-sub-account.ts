import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { Kobo } from '../../../shared/money.ts';
import { AccountSchema } from '../account-schemas.ts';
import { accountView } from '../account-view.ts';
import { updateSubAccountRequest } from '../sub-account-request.ts';
import { SubAccountKeyParams, UpdateSubAccountBody } from '../sub-account-schemas.ts';
import type { SubAccountService } from '../sub-account-service.ts';

export interface UpdateSubAccountRouteOptions {
  readonly subAccountService: Pick<SubAccountService, 'update'>;
  readonly institutionCode: string;
  readonly maxAmountKobo: Kobo;
}

/** ibs-api-reference §4.1.4; the id slot also takes the sub-account's externalReference. */
export const updateSubAccountRoute: FastifyPluginAsyncTypebox<
  UpdateSubAccountRouteOptions
> = async (app, { subAccountService, institutionCode, maxAmountKobo }) => {
  app.put(
    '/accounts/:id/subaccount',
    {
      schema: {
        tags: ['Accounts'],
        summary: "Update a sub-account's contact details, metadata, callback URL or auto-sweep",
        params: SubAccountKeyParams,
        body: UpdateSubAccountBody,
        response: { 200: envelopeSchema(AccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const account = await subAccountService.update(
        request.principal,
        request.params.id,
        updateSubAccountRequest(request.body, maxAmountKobo),
      );
      return ok('Sub account updated successfully.', accountView(account, institutionCode));
    },
  );
};
