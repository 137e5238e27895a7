import type { AlertMessage } from '../modules/alerts/index.ts';

/** An alert message as the sandbox inbox shows it (SandboxMessageSchema). */
export function sandboxMessageView(message: AlertMessage) {
  return {
    _id: message.id,
    accountNumber: message.accountNumber,
    clientId: message.clientId,
    channel: message.channel,
    to: message.destination,
    status: message.status,
    subject: message.subject,
    body: message.textBody,
    html: message.htmlBody,
    attempts: message.attempts,
    lastError: message.lastError,
    createdAt: message.createdAt.toISOString(),
    sentAt: message.sentAt === null ? null : message.sentAt.toISOString(),
    statementMonth: message.statementMonth,
  };
}
