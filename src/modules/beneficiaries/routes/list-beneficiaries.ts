import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { paged } from '../../../http/envelope.ts';
import { BeneficiaryQuery, BeneficiarySchema } from '../beneficiary-schemas.ts';
import type { BeneficiaryService } from '../beneficiary-service.ts';
import { beneficiaryView } from '../beneficiary-view.ts';

export interface ListBeneficiariesRouteOptions {
  readonly beneficiaryService: Pick<BeneficiaryService, 'list'>;
}

export const listBeneficiariesRoute: FastifyPluginAsyncTypebox<
  ListBeneficiariesRouteOptions
> = async (app, { beneficiaryService }) => {
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
      const { beneficiaries, total } = await beneficiaryService.list(
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
};
