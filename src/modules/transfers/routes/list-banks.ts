import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { listBanks, ownInstitutionName } from '../name-enquiry/bank-directory.ts';
import { BankSchema } from '../name-enquiry/bank-schemas.ts';
import { bankView } from '../name-enquiry/bank-view.ts';

export interface ListBanksRouteOptions {
  readonly institutionCode: string;
  /** Our own entry's name; by default "Safe Haven Sandbox Bank" for 999240. */
  readonly institutionName?: string;
}

export const listBanksRoute: FastifyPluginAsyncTypebox<ListBanksRouteOptions> = async (
  app,
  { institutionCode, institutionName },
) => {
  // The directory is fixed for the life of the process: build the answer once, at start-up,
  // where a clash between our name and a listed bank's fails the boot instead of a request.
  const banks = listBanks(institutionCode, institutionName ?? ownInstitutionName(institutionCode));
  const data = banks.map(bankView);
  app.get(
    '/transfers/banks',
    {
      schema: {
        tags: ['Transfers'],
        summary: 'List the banks you can transfer to',
        description:
          'Every institution that takes NIP transfers, ours included, sorted by name. One ' +
          'envelope with the whole list: not paginated, so there is no `pagination` field.',
        response: {
          200: envelopeSchema(Type.Array(BankSchema)),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async () => ok('Banks fetched successfully.', data),
  );
};
