/** The beneficiaries module's public face: saved beneficiaries of a client's transfers. */

/** What the wiring builds and registers of this module (docs/architecture.md). */
export { beneficiariesModule } from './beneficiaries-module.ts';
export type { BeneficiaryService } from './beneficiary-service.ts';
export { BeneficiaryToSaveSchema } from './beneficiary-service.ts';
