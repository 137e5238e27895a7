import type { Readable } from 'node:stream';
import type { DeliveryOutcome } from './delivery.ts';

/**
 * A file an email carries (a monthly statement's PDF, say): bytes, or a stream the sender reads
 * as it writes the message, so a large file is never held whole. A stream is read at most once:
 * a retry makes a new one.
 */
export interface EmailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Uint8Array | string | Readable;
}

export interface OutgoingEmail {
  /**
   * The message's stable id, sent as its Message-ID (`<id@domain>`): the same on every retry,
   * so a receiving system that de-duplicates by Message-ID keeps one copy.
   */
  readonly messageId: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string | undefined;
  readonly attachments?: readonly EmailAttachment[];
}

/** Sends email: SMTP (smtp-email-sender.ts) or the sandbox's keeper (sandbox-email-sender.ts). */
export interface EmailSender {
  send(email: OutgoingEmail): Promise<DeliveryOutcome>;
  /** Lets go of connections. */
  close(): void;
}

/** The domain of every alert's Message-ID. */
export const MESSAGE_ID_DOMAIN = 'alerts.openibs';

export function messageIdHeader(messageId: string): string {
  return `<${messageId}@${MESSAGE_ID_DOMAIN}>`;
}
