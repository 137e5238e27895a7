import type { GroupCommitLimits } from '../../db/group-commit.ts';
import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
  statusQueriesInServer,
  statusQuerySettings,
} from '../../http/module-descriptor.ts';
import { destinationPolicy } from '../../webhooks/destination-guard.ts';
import type { Biller } from './providers/biller.ts';
import { vasRoutes } from './routes/index.ts';
import { vasPlacement, vasSettlement } from './vas-batch.ts';
import { createVasCatalogueService } from './vas-catalogue-service.ts';
import { createVasPurchaseService } from './vas-purchase-service.ts';
import { createVasStatusQueryWorker } from './vas-status-query-worker.ts';

export interface VasModuleDeps extends CoreParts {
  /** The biller (guarded: deadlines and a circuit breaker). */
  readonly biller: Biller;
  /** Group commit of the money path (db/group-commit.ts), the queue bound included. */
  readonly batches: GroupCommitLimits;
}

function createVasServices(deps: VasModuleDeps) {
  const { config, db, clock, biller } = deps;
  const vasCatalogueService = createVasCatalogueService({ db, clock, biller });
  const vasPurchaseService = createVasPurchaseService({
    db,
    clock,
    biller,
    statusQueryScheduleSeconds: config.vas.statusQueryScheduleSeconds,
    batches: deps.batches,
    limits: config.transfers,
    callbackPolicy: destinationPolicy(config),
  });
  return { vasCatalogueService, vasPurchaseService };
}

type VasServices = ReturnType<typeof createVasServices>;

function vasRouteOptions({ config, clock, services }: RouteParts<VasServices>) {
  return {
    vasCatalogueService: services.vasCatalogueService,
    vasPurchaseService: services.vasPurchaseService,
    institutionCode: config.institutionCode,
    clock,
    maxAmountKobo: config.maxAmountKobo,
  };
}

export const vasModule = {
  name: 'vas',
  batch: { kinds: [vasPlacement, vasSettlement] },
  createServices: createVasServices,
  routes: [moduleRoutes('api', vasRoutes, vasRouteOptions)],
  workers: [
    {
      name: 'vasStatusQueries',
      inServer: statusQueriesInServer,
      // Pending purchases, on the same worker settings as the NIP status queries.
      create: (parts) =>
        createVasStatusQueryWorker({
          ...statusQuerySettings(parts),
          purchases: parts.services.vasPurchaseService,
        }),
    },
  ],
} satisfies ModuleDescriptor<VasServices, VasModuleDeps, VasServices>;
