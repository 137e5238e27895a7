import http from 'node:http';

/**
 * A lean keep-alive HTTP/1.1 client for setup calls and for timing single requests. node:http
 * rather than fetch: fetch adds its own per-request overhead (streams, promises) that would blur
 * millisecond timings of the server.
 */
export interface HttpResponse {
  readonly status: number;
  readonly body: string;
  /** Request written to last body byte read, in milliseconds. */
  readonly elapsedMs: number;
}

const REQUEST_TIMEOUT_MS = 60_000;

export class HttpClient {
  private readonly agent: http.Agent;

  /**
   * One socket by default, reused: timed requests are sequential and must not pay for a new
   * connection. Load generators ask for more.
   */
  constructor(
    private readonly baseUrl: string,
    sockets = 1,
  ) {
    if (new URL(baseUrl).hostname !== '127.0.0.1') {
      throw new Error(`the bench only talks to 127.0.0.1, not ${baseUrl}`);
    }
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
    return this.request('GET', path, headers, undefined);
  }

  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResponse> {
    return this.request('POST', path, { 'content-type': 'application/json', ...headers }, body);
  }

  close(): void {
    this.agent.destroy();
  }

  /** A JSON body gets its content type and length. */
  request(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: unknown,
  ): Promise<HttpResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const allHeaders =
      payload === undefined
        ? headers
        : {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(payload)),
          };
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const request = http.request(
        new URL(path, this.baseUrl),
        { method, headers: allHeaders, agent: this.agent, timeout: REQUEST_TIMEOUT_MS },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              elapsedMs: performance.now() - started,
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`${method} ${path} timed out`)));
      request.on('error', reject);
      request.end(payload);
    });
  }
}

/** The parsed JSON body of a response with the expected status, or an error naming the call. */
export function expectJson<T>(response: HttpResponse, status: number, what: string): T {
  if (response.status !== status) {
    throw new Error(`${what}: expected HTTP ${status}, got ${response.status}: ${response.body}`);
  }
  return JSON.parse(response.body) as T;
}
