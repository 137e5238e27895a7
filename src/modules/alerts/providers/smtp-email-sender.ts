import nodemailer from 'nodemailer';
import type { DeliveryOutcome } from './delivery.ts';
import { type EmailSender, messageIdHeader, type OutgoingEmail } from './email-sender.ts';

/**
 * Email over SMTP (nodemailer), to the server SMTP_URL names. A 5xx answer is permanent for the
 * address (the mailbox does not exist, the domain refuses); a 4xx, a timeout or a lost
 * connection is temporary: the message is tried again later under the same Message-ID.
 */
export function createSmtpEmailSender(options: {
  readonly url: string;
  readonly timeoutMs: number;
}): EmailSender {
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  return {
    async send(email: OutgoingEmail): Promise<DeliveryOutcome> {
      try {
        await transport.sendMail({
          messageId: messageIdHeader(email.messageId),
          from: email.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          ...(email.html === undefined ? {} : { html: email.html }),
          attachments: (email.attachments ?? []).map((attachment) => ({
            filename: attachment.filename,
            contentType: attachment.contentType,
            // A stream goes to nodemailer as it is: it encodes it onto the socket as it reads.
            content:
              attachment.content instanceof Uint8Array
                ? Buffer.from(attachment.content)
                : attachment.content,
          })),
        });
        return { kind: 'accepted' };
      } catch (error) {
        return smtpFailure(error);
      }
    },
    close() {
      transport.close();
    },
  };
}

/** A failed send as an outcome: 5xx permanent, anything else temporary. */
export function smtpFailure(error: unknown): DeliveryOutcome {
  const code = (error as { responseCode?: unknown }).responseCode;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'number' && code >= 500 && code < 600) {
    return { kind: 'permanent', error: `SMTP ${code}: ${message}`.slice(0, 500) };
  }
  return {
    kind: 'temporary',
    error: (typeof code === 'number' ? `SMTP ${code}: ${message}` : message).slice(0, 500),
  };
}
