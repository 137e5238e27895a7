import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type DeleteBeneficiaryRouteOptions,
  deleteBeneficiaryRoute,
} from './delete-beneficiary.ts';
import {
  type ListBeneficiariesRouteOptions,
  listBeneficiariesRoute,
} from './list-beneficiaries.ts';

export type BeneficiaryRoutesOptions = ListBeneficiariesRouteOptions &
  DeleteBeneficiaryRouteOptions;

/** /transfers/beneficiaries: the published paths sit under transfers. */
export const beneficiaryRoutes: FastifyPluginAsyncTypebox<BeneficiaryRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(listBeneficiariesRoute, options);
  await app.register(deleteBeneficiaryRoute, options);
};
