/**
 * The identity module's public face: identity and credit checks, the proof a sub-account needs,
 * and the identity bureau providers.
 */

/** What the wiring builds and registers of this module (docs/architecture.md). */
export { identityModule } from './identity-module.ts';
export { createIdentityProof } from './identity-proof.ts';
export { VerificationOperatorSchema } from './identity-schemas.ts';
export type { IdentityService } from './identity-service.ts';
export { verificationOperatorView } from './identity-view.ts';
export type { IdentityBureau } from './providers/identity-bureau.ts';
export { createIdentityBureauSimulator } from './providers/identity-bureau-simulator.ts';
export { createUnconfiguredBureau } from './providers/unconfigured-bureau.ts';
