import { authModule } from './auth/auth-module.ts';
import type { ModuleDescriptor } from './http/module-descriptor.ts';
import { accountsModule } from './modules/accounts/index.ts';
import { alertsModule } from './modules/alerts/index.ts';
import { beneficiariesModule } from './modules/beneficiaries/index.ts';
import { checkoutModule } from './modules/checkout/index.ts';
import { clientsModule } from './modules/clients/index.ts';
import { identityModule } from './modules/identity/index.ts';
import { transfersModule } from './modules/transfers/index.ts';
import { ussdModule } from './modules/ussd/index.ts';
import { vasModule } from './modules/vas/index.ts';
import { virtualAccountsModule } from './modules/virtual-accounts/index.ts';
import { retentionUpkeep } from './retention-worker.ts';
import type { Services } from './services.ts';
import { webhooksModule } from './webhooks/webhooks-module.ts';

/**
 * Every descriptor (docs/architecture.md, "Module descriptors"), in the order app.ts registers
 * their routes (which is the order of the API reference) and background-workers.ts builds their
 * loops. A new module adds its descriptor here; nothing else in the wiring names its pieces.
 */
export const DESCRIPTORS: readonly ModuleDescriptor<Services>[] = [
  accountsModule,
  identityModule,
  transfersModule,
  virtualAccountsModule,
  vasModule,
  ussdModule,
  checkoutModule,
  beneficiariesModule,
  webhooksModule,
  authModule,
  clientsModule,
  alertsModule,
  retentionUpkeep,
];
