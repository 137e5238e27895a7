import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
} from '../../http/module-descriptor.ts';
import { identityCharge } from './identity-batch.ts';
import { createIdentityService } from './identity-service.ts';
import { randomOtp, SANDBOX_OTP } from './otp.ts';
import type { IdentityBureau } from './providers/identity-bureau.ts';
import { identityRoutes } from './routes/index.ts';

export interface IdentityModuleDeps extends CoreParts {
  /** The identity bureau (guarded: deadlines and a circuit breaker). */
  readonly bureau: IdentityBureau;
  /** Keys the stored OTP digests. */
  readonly otpSecret: string;
}

function createIdentityServices(deps: IdentityModuleDeps) {
  const { config } = deps;
  const identityService = createIdentityService({
    db: deps.db,
    clock: deps.clock,
    bureau: deps.bureau,
    config: config.identity,
    vatBasisPoints: config.transfers.vatBasisPoints,
    // The documented sandbox OTP (docs/sandbox-identity.md); production OTPs are random.
    newOtp: config.ibsEnv === 'sandbox' ? () => SANDBOX_OTP : randomOtp,
    otpSecret: deps.otpSecret,
  });
  return { identityService };
}

type IdentityServices = ReturnType<typeof createIdentityServices>;

export const identityModule = {
  name: 'identity',
  batch: { kinds: [identityCharge] },
  createServices: createIdentityServices,
  routes: [
    moduleRoutes('api', identityRoutes, ({ services }: RouteParts<IdentityServices>) => ({
      identityService: services.identityService,
    })),
  ],
} satisfies ModuleDescriptor<IdentityServices, IdentityModuleDeps, IdentityServices>;
