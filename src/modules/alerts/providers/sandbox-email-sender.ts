import type { DeliveryOutcome } from './delivery.ts';
import type { EmailAttachment, EmailSender } from './email-sender.ts';

/**
 * The sandbox without SMTP_URL: every email is accepted and stays readable in the sandbox's
 * message inbox (the alert_messages row keeps what was rendered), and nothing leaves the
 * machine. Addresses in the reserved `.invalid` domain are refused for good, as a mail server
 * would refuse a mailbox that does not exist: a test can see suppression without a server.
 * Attachments are read to their end, as a mail server would (a statement that cannot be made
 * fails here as it would over SMTP), and not kept.
 */
export function createSandboxEmailSender(): EmailSender {
  return {
    async send(email): Promise<DeliveryOutcome> {
      if (/\.invalid$/i.test(email.to.trim())) {
        return { kind: 'permanent', error: `550 no such mailbox: ${email.to}` };
      }
      try {
        await readAttachments(email.attachments);
      } catch (error) {
        return { kind: 'temporary', error: error instanceof Error ? error.message : String(error) };
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

async function readAttachments(attachments: readonly EmailAttachment[] = []): Promise<void> {
  for (const { content } of attachments) {
    if (typeof content !== 'string' && !(content instanceof Uint8Array)) {
      for await (const _chunk of content) {
        // Read and let go: the sandbox keeps the message's text, not its files.
      }
    }
  }
}
