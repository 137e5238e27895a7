/** The beneficiaries module's public face: saved beneficiaries of a client's transfers. */
export { type BeneficiaryService, createBeneficiaryService } from './beneficiary-service.ts';
export { beneficiaryRoutes } from './routes/index.ts';
