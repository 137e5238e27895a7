import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
} from '../../http/module-descriptor.ts';
import { createBeneficiaryService } from './beneficiary-service.ts';
import { beneficiaryRoutes } from './routes/index.ts';

export interface BeneficiariesModuleDeps extends CoreParts {
  /** The bank's name for a NIP code, stored with the beneficiary (the transfers module's). */
  readonly bankName: (bankCode: string) => string | undefined;
}

function createBeneficiariesServices(deps: BeneficiariesModuleDeps) {
  const beneficiaryService = createBeneficiaryService({
    db: deps.db,
    clock: deps.clock,
    bankName: deps.bankName,
  });
  return { beneficiaryService };
}

type BeneficiariesServices = ReturnType<typeof createBeneficiariesServices>;

export const beneficiariesModule = {
  name: 'beneficiaries',
  createServices: createBeneficiariesServices,
  routes: [
    moduleRoutes('api', beneficiaryRoutes, ({ services }: RouteParts<BeneficiariesServices>) => ({
      beneficiaryService: services.beneficiaryService,
    })),
  ],
} satisfies ModuleDescriptor<BeneficiariesServices, BeneficiariesModuleDeps, BeneficiariesServices>;
