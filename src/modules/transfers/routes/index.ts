import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { beneficiaryRoutes } from '../../beneficiaries/routes/beneficiaries.ts';
import type { NameEnquiryService } from '../name-enquiry/name-enquiry-service.ts';
import type { TransferService } from '../transfer-service.ts';
import { createTransferRoute } from './create-transfer.ts';
import { listTransfersRoute } from './list-transfers.ts';
import { nameEnquiryRoute } from './name-enquiry.ts';
import { transferStatusRoute } from './transfer-status.ts';

export interface TransferRoutesOptions {
  readonly transferService: TransferService;
  readonly nameEnquiryService: NameEnquiryService;
  readonly maxAmountKobo: bigint;
}

export const transferRoutes: FastifyPluginAsyncTypebox<TransferRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(nameEnquiryRoute, options);
  await app.register(createTransferRoute, options);
  await app.register(transferStatusRoute, options);
  await app.register(listTransfersRoute, options);
  await app.register(beneficiaryRoutes, options);
};
