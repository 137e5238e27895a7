import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One email as it arrived, read back by mailparser. */
export interface ReceivedEmail {
  readonly messageId: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Files it carried (a monthly statement's PDF), as they arrived. */
  readonly attachments: readonly {
    readonly filename: string;
    readonly contentType: string;
    readonly content: Buffer;
  }[];
}

/** An SMTP answer a test makes the receiver give: `{ code: 451 }` is temporary, 550 permanent. */
type Refusal = { readonly code: number; readonly message: string } | undefined;

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package), in the test's process: what
 * arrives is parsed with mailparser. `refuseRecipient` and `refuseData` decide answers per
 * recipient and per message, so a test can make it fail and recover.
 */
export class SmtpReceiver {
  readonly received: ReceivedEmail[] = [];
  refuseRecipient: (address: string) => Refusal = () => undefined;
  refuseData: () => Refusal = () => undefined;
  /** How long each message's answer takes (a slow server: a kill lands mid-batch). */
  delayMs = 0;
  private server: SMTPServer | undefined;

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const refusal = this.refuseRecipient(address.address);
        callback(refusal === undefined ? undefined : smtpError(refusal));
      },
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          if (this.delayMs > 0) {
            await new Promise((resolve) => setTimeout(resolve, this.delayMs));
          }
          const refusal = this.refuseData();
          if (refusal !== undefined) {
            callback(smtpError(refusal));
            return;
          }
          simpleParser(Buffer.concat(chunks)).then(
            (mail) => {
              const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
              this.received.push({
                messageId: mail.messageId ?? '',
                to: to?.value[0]?.address ?? '',
                subject: mail.subject ?? '',
                text: mail.text ?? '',
                html: typeof mail.html === 'string' ? mail.html : '',
                attachments: mail.attachments.map((attachment) => ({
                  filename: attachment.filename ?? '',
                  contentType: attachment.contentType,
                  content: attachment.content,
                })),
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }

  url(): string {
    const address = this.server?.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server !== undefined) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}

function smtpError(refusal: { code: number; message: string }): Error {
  return Object.assign(new Error(refusal.message), { responseCode: refusal.code });
}
