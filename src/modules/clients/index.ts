/** The clients module's public face: onboarding clients and their OAuth apps (operator use). */
export type { ClientRecord } from './client-repository.ts';
export { type ClientService, clientNames, createClientService } from './client-service.ts';
