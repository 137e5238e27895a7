import type { RevocationList } from '../../auth/revocation-list.ts';
import type { CoreParts, ModuleDescriptor } from '../../http/module-descriptor.ts';
import type { AccountService } from '../accounts/index.ts';
import { createClientService } from './client-service.ts';

export interface ClientsModuleDeps extends CoreParts {
  /** Opens a new client's main account. */
  readonly accountService: AccountService;
  /** Told after each revocation, so this process refuses the revoked tokens at once. */
  readonly revocations: Pick<RevocationList, 'invalidate'>;
}

function createClientsServices(deps: ClientsModuleDeps) {
  const clientService = createClientService({
    db: deps.db,
    clock: deps.clock,
    accountService: deps.accountService,
    minRsaKeyBits: deps.config.minRsaKeyBits,
    revocations: deps.revocations,
  });
  return { clientService };
}

type ClientsServices = ReturnType<typeof createClientsServices>;

/** Clients are onboarded by operators (the admin API): the module has no routes of its own. */
export const clientsModule = {
  name: 'clients',
  createServices: createClientsServices,
} satisfies ModuleDescriptor<ClientsServices, ClientsModuleDeps, ClientsServices>;
