import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { AccountSchema } from '../account-schemas.ts';
import { accountView } from '../account-view.ts';
import { CreateSubAccountBody, UpdateSubAccountBody } from '../sub-account-schemas.ts';
import type { SubAccountService } from '../sub-account-service.ts';

export interface SubAccountRoutesOptions {
  readonly subAccountService: SubAccountService;
  readonly institutionCode: string;
}

/** Both published creation paths, and the update (ibs-api-reference §4.1.2-4.1.4). */
export const subAccountRoutes: FastifyPluginAsyncTypebox<SubAccountRoutesOptions> = async (
  app,
  { subAccountService, institutionCode },
) => {
  for (const url of ['/accounts/subaccount', '/accounts/v2/subaccount']) {
    app.post(
      url,
      {
        schema: {
          tags: ['Accounts'],
          summary: 'Create a sub-account for a verified individual or company',
          description:
            'Individuals: identityId of a validated BVN/NIN/vNIN/BVNUSSD check (or pass otp to validate it now). ' +
            'Companies: identityType CAC, identityId of the CAC check, directorIdentityIds of validated directors.',
          body: CreateSubAccountBody,
          response: { 200: envelopeSchema(AccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
        },
      },
      async (request) => {
        const account = await subAccountService.create(request.principal, request.body);
        return ok('Sub account created successfully.', accountView(account, institutionCode));
      },
    );
  }

  app.put(
    '/accounts/:id/subaccount',
    {
      schema: {
        tags: ['Accounts'],
        summary: "Update a sub-account's contact details, metadata, callback URL or auto-sweep",
        params: IdParams,
        body: UpdateSubAccountBody,
        response: { 200: envelopeSchema(AccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const account = await subAccountService.update(
        request.principal,
        request.params.id,
        request.body,
      );
      return ok('Sub account updated successfully.', accountView(account, institutionCode));
    },
  );
};
