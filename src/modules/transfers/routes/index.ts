import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type BulkTransferStatusRouteOptions,
  bulkTransferStatusRoute,
} from './bulk-transfer-status.ts';
import {
  type CreateBulkTransferRouteOptions,
  createBulkTransferRoute,
} from './create-bulk-transfer.ts';
import { type CreateTransferRouteOptions, createTransferRoute } from './create-transfer.ts';
import { type ListBanksRouteOptions, listBanksRoute } from './list-banks.ts';
import {
  type ListBulkTransfersRouteOptions,
  listBulkTransfersRoute,
} from './list-bulk-transfers.ts';
import { type ListTransfersRouteOptions, listTransfersRoute } from './list-transfers.ts';
import { type NameEnquiryRouteOptions, nameEnquiryRoute } from './name-enquiry.ts';
import { type TransferStatusRouteOptions, transferStatusRoute } from './transfer-status.ts';

export type TransferRoutesOptions = CreateTransferRouteOptions &
  CreateBulkTransferRouteOptions &
  BulkTransferStatusRouteOptions &
  ListBulkTransfersRouteOptions &
  ListBanksRouteOptions &
  ListTransfersRouteOptions &
  NameEnquiryRouteOptions &
  TransferStatusRouteOptions;

/** Every /transfers route but the beneficiaries (their own module). */
export const transferRoutes: FastifyPluginAsyncTypebox<TransferRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(listBanksRoute, options);
  await app.register(nameEnquiryRoute, options);
  await app.register(createTransferRoute, options);
  await app.register(transferStatusRoute, options);
  await app.register(listTransfersRoute, options);
  await app.register(createBulkTransferRoute, options);
  await app.register(bulkTransferStatusRoute, options);
  await app.register(listBulkTransfersRoute, options);
};
