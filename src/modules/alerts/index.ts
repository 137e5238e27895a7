/**
 * The alerts module's public face (docs/alerts.md): customer debit and credit alerts by email
 * and SMS, made from the ledger's notices, and the sandbox's message inbox.
 */
export {
  findHolderContacts,
  type HolderContacts,
  holderMessages,
  type MessageContent,
  queueMessages,
} from './alert-composer.ts';
export type { StatementFiles } from './alert-delivery.ts';
export type { AlertInbox } from './alert-inbox.ts';
export type { AlertChannel, AlertMessage } from './alert-message.ts';
export { purgeSettledAlertMessages, type SuppressedDestination } from './alert-repository.ts';
export type { AlertSuppressions } from './alert-suppressions.ts';
/** What the wiring builds and registers of this module (docs/architecture.md). */
export { alertsModule, createEmailSender, createSmsProvider } from './alerts-module.ts';
export type { DeliveryOutcome } from './providers/delivery.ts';
export type { EmailAttachment, EmailSender, OutgoingEmail } from './providers/email-sender.ts';
export type { OutgoingSms, SmsProvider } from './providers/sms-provider.ts';
export { createSmsSimulator } from './providers/sms-simulator.ts';
