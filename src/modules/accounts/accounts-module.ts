import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
} from '../../http/module-descriptor.ts';
import { byClient } from '../../http/plugins/rate-limits.ts';
import { destinationPolicy } from '../../webhooks/destination-guard.ts';
import { createAccountService } from './account-service.ts';
import type { AlsoListed, ClientNames, IdentityProof } from './ports.ts';
import { accountRoutes } from './routes/index.ts';
import type { StatementBank } from './statement-pdf.ts';
import { createSubAccountService } from './sub-account-service.ts';

/** The ports other modules plug in (services.ts), so that they depend on accounts, not back. */
export interface AccountsModuleDeps extends CoreParts {
  readonly clientNames: ClientNames;
  /** Listed after the sub-accounts (virtual accounts). */
  readonly alsoListed: AlsoListed;
  /** The identity check a sub-account's holder needs. */
  readonly proof: IdentityProof;
  /** Whose name heads a statement document: this bank's, as the bank directory lists it. */
  readonly statementBank: StatementBank;
}

function createAccountsServices(deps: AccountsModuleDeps) {
  const { config, db, clock } = deps;
  const accountService = createAccountService({
    db,
    clock,
    institutionCode: config.institutionCode,
    clientNames: deps.clientNames,
    alsoListed: deps.alsoListed,
  });
  const subAccountService = createSubAccountService({
    db,
    clock,
    accounts: accountService,
    proof: deps.proof,
    callbackPolicy: destinationPolicy(config),
  });
  return { accountService, subAccountService, statementBank: deps.statementBank };
}

type AccountsServices = ReturnType<typeof createAccountsServices>;

function accountRouteOptions({ config, services, limit }: RouteParts<AccountsServices>) {
  return {
    accountService: services.accountService,
    subAccountService: services.subAccountService,
    statementBank: services.statementBank,
    statementExportLimit: limit({
      name: 'statementExports',
      max: config.rateLimits.statementExportsPerMinutePerClient,
      key: byClient,
    }),
    institutionCode: config.institutionCode,
    maxAmountKobo: config.maxAmountKobo,
  };
}

export const accountsModule = {
  name: 'accounts',
  createServices: createAccountsServices,
  routes: [moduleRoutes('api', accountRoutes, accountRouteOptions)],
} satisfies ModuleDescriptor<AccountsServices, AccountsModuleDeps, AccountsServices>;
