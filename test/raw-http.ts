import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sandboxCredit, signedInClient } from './factories.ts';
import { buildTestApp, type TestApp } from './harness.ts';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read wire JSON of any shape
  readonly body: any;
}

export type RawSend = (
  method: string,
  path: string,
  options?: { headers?: Record<string, string>; body?: string | Buffer | object },
) => Promise<RawResponse>;

/**
 * Requests as a client's HTTP library sends them, over a real socket to the listening app: the
 * path goes out byte for byte (no URL normalising), a string or Buffer body goes out as it is, an
 * object as JSON. Every request carries `Content-Type: application/json`, as the clients studied do.
 */
export async function listenRaw(app: FastifyInstance): Promise<RawSend> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return (method, path, options = {}) =>
    new Promise((resolve, reject) => {
      const payload =
        options.body === undefined
          ? undefined
          : typeof options.body === 'string' || Buffer.isBuffer(options.body)
            ? options.body
            : JSON.stringify(options.body);
      const outgoing = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: {
            'content-type': 'application/json',
            ...(payload === undefined ? {} : { 'content-length': Buffer.byteLength(payload) }),
            ...options.headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = JSON.parse(text);
            } catch {
              body = undefined;
            }
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
}

/** A funded, signed-in client of a fresh app, listening on 127.0.0.1 (one per test file). */
export interface RawClient {
  readonly testApp: TestApp;
  readonly send: RawSend;
  readonly headers: Record<string, string>;
  readonly main: { readonly _id: string; readonly accountNumber: string };
  /** A request with the client's headers. */
  call(method: string, path: string, body?: string | object): Promise<RawResponse>;
}

export function useRawClient(fundingNaira = 5_000): () => RawClient {
  let client: RawClient | undefined;
  before(async () => {
    const testApp = await buildTestApp();
    const signedIn = await signedInClient(testApp);
    const send = await listenRaw(testApp.app);
    const { headers } = signedIn;
    client = {
      testApp,
      send,
      headers,
      main: {
        _id: signedIn.client.mainAccountId,
        accountNumber: signedIn.client.mainAccountNumber,
      },
      call: (method, path, body) =>
        send(method, path, { headers, ...(body === undefined ? {} : { body }) }),
    };
    await sandboxCredit(testApp.app, client.main.accountNumber, fundingNaira);
  });
  after(() => client?.testApp.close());
  return () => {
    if (client === undefined) {
      throw new Error('useRawClient: the client is built in before()');
    }
    return client;
  };
}
