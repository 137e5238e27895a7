import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { ok, paged } from '../../../http/envelope.ts';
import type { TransferRoutesOptions } from '../../transfers/routes/index.ts';
import { BeneficiaryQuery, BeneficiarySchema } from '../../transfers/transfer-schemas.ts';
import type { Beneficiary } from '../beneficiary-repository.ts';

export const beneficiaryRoutes: FastifyPluginAsyncTypebox<TransferRoutesOptions> = async (
  app,
  { transferService },
) => {
  app.get(
    '/transfers/beneficiaries',
    {
      schema: {
        tags: ['Beneficiaries'],
        summary: 'Your saved beneficiaries, newest first',
        querystring: BeneficiaryQuery,
        response: { 200: pagedEnvelopeSchema(BeneficiarySchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { beneficiaries, total } = await transferService.beneficiaries(
        request.principal,
        request.query,
      );
      return paged('Beneficiaries fetched successfully.', beneficiaries.map(beneficiaryView), {
        page,
        limit,
        total,
      });
    },
  );

  app.delete(
    '/transfers/beneficiaries/:id',
    {
      schema: {
        tags: ['Beneficiaries'],
        summary: 'Delete a saved beneficiary',
        params: IdParams,
        response: { 200: envelopeSchema(BeneficiarySchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const removed = await transferService.removeBeneficiary(request.principal, request.params.id);
      return ok('Beneficiary deleted successfully.', beneficiaryView(removed));
    },
  );
};

function beneficiaryView(beneficiary: Beneficiary) {
  return {
    _id: beneficiary.id,
    client: beneficiary.clientId,
    bankCode: beneficiary.bankCode,
    bankName: beneficiary.bankName,
    accountNumber: beneficiary.accountNumber,
    accountName: beneficiary.accountName,
    createdAt: beneficiary.createdAt.toISOString(),
    updatedAt: beneficiary.updatedAt.toISOString(),
  };
}
