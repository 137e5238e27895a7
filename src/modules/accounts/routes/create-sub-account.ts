import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { requestFingerprint } from '../../../idempotency/idempotency.ts';
import type { Kobo } from '../../../shared/money.ts';
import { AccountSchema } from '../account-schemas.ts';
import { accountView } from '../account-view.ts';
import { createSubAccountRequest } from '../sub-account-request.ts';
import { CreateSubAccountBody } from '../sub-account-schemas.ts';
import type { SubAccountService } from '../sub-account-service.ts';

export interface CreateSubAccountRouteOptions {
  readonly subAccountService: Pick<SubAccountService, 'create'>;
  readonly institutionCode: string;
  readonly maxAmountKobo: Kobo;
}

/** Both published creation paths (ibs-api-reference §4.1.2-4.1.3). */
export const createSubAccountRoute: FastifyPluginAsyncTypebox<
  CreateSubAccountRouteOptions
> = async (app, { subAccountService, institutionCode, maxAmountKobo }) => {
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
        const account = await subAccountService.create(
          request.principal,
          createSubAccountRequest(request.body, maxAmountKobo),
          // The same externalReference with the same body, in any key order, replays.
          requestFingerprint(request.body),
        );
        return ok('Sub account created successfully.', accountView(account, institutionCode));
      },
    );
  }
};
