import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { BeneficiarySchema } from '../beneficiary-schemas.ts';
import type { BeneficiaryService } from '../beneficiary-service.ts';
import { beneficiaryView } from '../beneficiary-view.ts';

export interface DeleteBeneficiaryRouteOptions {
  readonly beneficiaryService: Pick<BeneficiaryService, 'remove'>;
}

export const deleteBeneficiaryRoute: FastifyPluginAsyncTypebox<
  DeleteBeneficiaryRouteOptions
> = async (app, { beneficiaryService }) => {
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
      const removed = await beneficiaryService.remove(request.principal, request.params.id);
      return ok('Beneficiary deleted successfully.', beneficiaryView(removed));
    },
  );
};
