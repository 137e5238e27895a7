/** The clients module's public face: onboarding clients and their OAuth apps (operator use). */
export { type ClientRecord, findClientEmails } from './client-repository.ts';
export { type ClientService, clientNames } from './client-service.ts';
/** What the wiring builds and registers of this module (docs/architecture.md). */
export { clientsModule } from './clients-module.ts';
