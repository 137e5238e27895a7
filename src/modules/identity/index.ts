/**
 * The identity module's public face: identity and credit checks, the proof a sub-account needs,
 * and the identity bureau providers.
 */
export { createIdentityProof } from './identity-proof.ts';
export { VerificationOperatorSchema } from './identity-schemas.ts';
export { createIdentityService, type IdentityService } from './identity-service.ts';
export { verificationOperatorView } from './identity-view.ts';
export { randomOtp, SANDBOX_OTP } from './otp.ts';
export type { IdentityBureau } from './providers/identity-bureau.ts';
export { createIdentityBureauSimulator } from './providers/identity-bureau-simulator.ts';
export { createUnconfiguredBureau } from './providers/unconfigured-bureau.ts';
export { identityRoutes } from './routes/index.ts';
