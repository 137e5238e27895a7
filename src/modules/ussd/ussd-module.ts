import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
  statusQueriesInServer,
  statusQuerySettings,
} from '../../http/module-descriptor.ts';
import { destinationPolicy } from '../../webhooks/destination-guard.ts';
import type { InboundCreditService } from '../transfers/index.ts';
import type { UssdGateway } from './providers/ussd-gateway.ts';
import { ussdRoutes } from './routes/index.ts';
import { UssdReferenceClaimSchema } from './ussd-reference-claim.ts';
import { createUssdService } from './ussd-service.ts';
import { createUssdStatusQueryWorker } from './ussd-status-query-worker.ts';

export interface UssdModuleDeps extends CoreParts {
  /** The USSD gateway (guarded: deadlines and a circuit breaker). */
  readonly gateway: UssdGateway;
  /** The money path a payment takes: an inbound credit (the transfers module). */
  readonly inboundCredits: Pick<InboundCreditService, 'receive'>;
  /** The client's webhook URL, which gets every payment event as well as the callbackUrl. */
  readonly webhookUrlOf: (clientId: string) => Promise<string | null>;
}

/** The USSD service; payments the gateway reports settle like credits from other banks. */
function createUssdServices(deps: UssdModuleDeps) {
  const { config, gateway } = deps;
  const ussdService = createUssdService({
    db: deps.db,
    clock: deps.clock,
    institutionCode: config.institutionCode,
    config: config.ussd,
    vatBasisPoints: config.transfers.vatBasisPoints,
    gateway,
    inboundCredits: deps.inboundCredits,
    callbackPolicy: destinationPolicy(config),
    webhookUrlOf: deps.webhookUrlOf,
  });
  gateway.onPayment((notice) => ussdService.settle(notice));
  return { ussdService };
}

type UssdServices = ReturnType<typeof createUssdServices>;

function ussdRouteOptions({ config, clock, services }: RouteParts<UssdServices>) {
  return {
    ussdService: services.ussdService,
    maxAmountKobo: config.maxAmountKobo,
    ussdViewContext: () => ({ institutionCode: config.institutionCode, now: clock.now() }),
  };
}

export const ussdModule = {
  name: 'ussd',
  batch: { claims: [UssdReferenceClaimSchema] },
  createServices: createUssdServices,
  routes: [moduleRoutes('api', ussdRoutes, ussdRouteOptions)],
  workers: [
    {
      name: 'ussdStatusQueries',
      inServer: statusQueriesInServer,
      // Unpaid references whose payment notice may have been lost, on the same settings.
      create: (parts) =>
        createUssdStatusQueryWorker({
          ...statusQuerySettings(parts),
          ussd: parts.services.ussdService,
        }),
    },
  ],
} satisfies ModuleDescriptor<UssdServices, UssdModuleDeps, UssdServices>;
