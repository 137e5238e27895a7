import type { DeliveryOutcome } from './delivery.ts';
import type { EmailSender } from './email-sender.ts';

/**
 * The sandbox without SMTP_URL: every email is accepted and stays readable in the sandbox's
 * message inbox (the alert_messages row keeps what was rendered), and nothing leaves the
 * machine. Addresses in the reserved `.invalid` domain are refused for good, as a mail server
 * would refuse a mailbox that does not exist: a test can see suppression without a server.
 */
export function createSandboxEmailSender(): EmailSender {
  return {
    async send(email): Promise<DeliveryOutcome> {
      if (/\.invalid$/i.test(email.to.trim())) {
        return { kind: 'permanent', error: `550 no such mailbox: ${email.to}` };
      }
      return { kind: 'accepted' };
    },
    close() {},
  };
}

/** Production without SMTP_URL: nothing is sent, and the messages wait saying why. */
export function createUnconfiguredEmailSender(): EmailSender {
  return {
    async send(): Promise<DeliveryOutcome> {
      return { kind: 'temporary', error: 'SMTP_URL is not set: no email can be sent' };
    },
    close() {},
  };
}
