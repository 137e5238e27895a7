import type { AuditLog } from '../../audit/index.ts';
import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
} from '../../http/module-descriptor.ts';
import { destinationPolicy } from '../../webhooks/destination-guard.ts';
import type { ClientNames } from '../accounts/index.ts';
import { findBank } from '../transfers/index.ts';
import type { UssdService } from '../ussd/index.ts';
import { CheckoutSessionClaimSchema } from './checkout-claim.ts';
import { createCheckoutPageViews } from './checkout-page-views.ts';
import {
  type CheckoutSandbox,
  type CheckoutServiceDeps,
  createCheckoutService,
  type PublicClientLookup,
} from './checkout-service.ts';
import {
  checkoutPublicRoutes,
  checkoutSettingsRoutes,
  verifyCheckoutRoute,
} from './routes/index.ts';

export interface CheckoutModuleDeps extends CoreParts {
  /** Signs the hosted page's access to its one session. */
  readonly pageSecret: string;
  readonly findPublicClient: PublicClientLookup;
  readonly clientNames: ClientNames;
  /** The methods a session is paid by: their modules' services. */
  readonly virtualAccounts: CheckoutServiceDeps['virtualAccounts'];
  readonly ussd: CheckoutServiceDeps['ussd'];
  /** The client's webhook URL: a config's webhookUrl may always name it. */
  readonly webhookUrlOf: (clientId: string) => Promise<string | null>;
  /** Sandbox: the simulated customer paying what the page shows; none in production. */
  readonly sandbox: CheckoutSandbox | undefined;
}

function createCheckoutServices(deps: CheckoutModuleDeps) {
  const { config } = deps;
  const checkoutService = createCheckoutService({
    ...deps,
    institutionCode: config.institutionCode,
    environment: config.ibsEnv,
    config: config.checkout,
    callbackPolicy: destinationPolicy(config),
  });
  return { checkoutService };
}

interface CheckoutServices extends ReturnType<typeof createCheckoutServices> {
  readonly ussdService: Pick<UssdService, 'banks'>;
  readonly auditLog: AuditLog;
}

/** The widget, the hosted page and its calls: at the root, outside authentication. */
function publicRouteOptions({ config, clock, services, limit }: RouteParts<CheckoutServices>) {
  const { institutionCode } = config;
  return {
    checkoutService: services.checkoutService,
    checkoutConfig: config.checkout,
    limit,
    maxAmountKobo: config.maxAmountKobo,
    bank: { name: findBank(institutionCode, institutionCode)?.name ?? '', code: institutionCode },
    checkoutViewContext: () => ({ institutionCode, now: clock.now() }),
    checkoutPageViews: createCheckoutPageViews({
      checkout: services.checkoutService,
      ussd: services.ussdService,
      clock,
      environment: config.ibsEnv,
    }),
  };
}

export const checkoutModule = {
  name: 'checkout',
  batch: { claims: [CheckoutSessionClaimSchema] },
  createServices: createCheckoutServices,
  routes: [
    moduleRoutes('public', checkoutPublicRoutes, publicRouteOptions),
    moduleRoutes('api', verifyCheckoutRoute, ({ config, clock, services }) => ({
      checkoutService: services.checkoutService,
      institutionCode: config.institutionCode,
      clock,
    })),
    moduleRoutes('api', checkoutSettingsRoutes, ({ services }: RouteParts<CheckoutServices>) => ({
      checkoutService: services.checkoutService,
      auditLog: services.auditLog,
    })),
  ],
} satisfies ModuleDescriptor<
  CheckoutServices,
  CheckoutModuleDeps,
  ReturnType<typeof createCheckoutServices>
>;
