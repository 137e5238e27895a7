import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceiverMode = 'ok' | 'error' | 'gone' | 'hang';

export interface ReceivedRequest {
  readonly method: string | undefined;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A real HTTP webhook receiver on 127.0.0.1, as a client would run one: it records every
 * request and, like a careful client, processes each webhook-id once (its idempotency check).
 */
export class WebhookReceiver {
  mode: ReceiverMode = 'ok';
  readonly requests: ReceivedRequest[] = [];
  /** webhook-id -> how many times it was answered 2xx: exactly once is the guarantee. */
  readonly processed = new Map<string, number>();
  private server: Server | undefined;
  private port = 0;

  async start(port = 0): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.requests.push({
          method: request.method,
          path: request.url ?? '/',
          headers: request.headers,
          body,
        });
        this.answer(String(request.headers['webhook-id']), response);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  private answer(webhookId: string, response: ServerResponse): void {
    if (this.mode === 'hang') {
      return;
    }
    if (this.mode === 'ok') {
      this.processed.set(webhookId, (this.processed.get(webhookId) ?? 0) + 1);
    }
    const status = { ok: 200, error: 500, gone: 410 }[this.mode];
    response.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Stops listening; connections to its port are then refused. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server !== undefined) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}
