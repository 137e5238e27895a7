import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
} from '../../http/module-descriptor.ts';
import { destinationPolicy } from '../../webhooks/destination-guard.ts';
import { findBank } from '../transfers/index.ts';
import { virtualAccountRoutes } from './routes/index.ts';
import { VirtualAccountClaimSchema } from './virtual-account-claim.ts';
import { createVirtualAccountCollections } from './virtual-account-collections.ts';
import { createVirtualAccountService } from './virtual-account-service.ts';

export interface VirtualAccountsModuleDeps extends CoreParts {
  /** The client's webhook URL, where payments go when an account names no callbackUrl. */
  readonly webhookUrlOf: (clientId: string) => Promise<string | null>;
}

/**
 * The virtual-account service, and the Collections port the transfers module pays virtual
 * accounts through (services.ts plugs it in): both charge a payment by one rule, the
 * module's collection charges.
 */
function createVirtualAccountsServices(deps: VirtualAccountsModuleDeps) {
  const { config, db, clock } = deps;
  const virtualAccountService = createVirtualAccountService({
    db,
    clock,
    institutionCode: config.institutionCode,
    config: config.virtualAccounts,
    vatBasisPoints: config.transfers.vatBasisPoints,
    callbackPolicy: destinationPolicy(config),
    webhookUrlOf: deps.webhookUrlOf,
  });
  const collections = createVirtualAccountCollections({
    clock,
    config: config.virtualAccounts,
    vatBasisPoints: config.transfers.vatBasisPoints,
  });
  return { virtualAccountService, collections };
}

type VirtualAccountsServices = Pick<
  ReturnType<typeof createVirtualAccountsServices>,
  'virtualAccountService'
>;

function virtualAccountRouteOptions({
  config,
  clock,
  services,
}: RouteParts<VirtualAccountsServices>) {
  const bankName = findBank(config.institutionCode, config.institutionCode)?.name ?? '';
  return {
    virtualAccountService: services.virtualAccountService,
    virtualAccountConfig: config.virtualAccounts,
    maxAmountKobo: config.maxAmountKobo,
    viewContext: () => ({ institutionCode: config.institutionCode, bankName, now: clock.now() }),
  };
}

export const virtualAccountsModule = {
  name: 'virtual-accounts',
  batch: { claims: [VirtualAccountClaimSchema] },
  createServices: createVirtualAccountsServices,
  routes: [moduleRoutes('api', virtualAccountRoutes, virtualAccountRouteOptions)],
} satisfies ModuleDescriptor<
  VirtualAccountsServices,
  VirtualAccountsModuleDeps,
  ReturnType<typeof createVirtualAccountsServices>
>;
