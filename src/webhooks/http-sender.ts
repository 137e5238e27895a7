import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { checkUrlForm, type DestinationPolicy, guardedLookup } from './destination-guard.ts';

export interface SendResult {
  /** Undefined when no HTTP answer came (refused, timed out, blocked). */
  readonly statusCode: number | undefined;
  readonly latencyMs: number;
  readonly error: string | undefined;
  readonly responseExcerpt: string | undefined;
}

export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  close(): void;
}

const EXCERPT_BYTES = 512;

/** POSTs webhook bodies with a deadline, through the destination guard, over keep-alive sockets. */
export function createHttpSender(options: {
  timeoutMs: number;
  policy: DestinationPolicy;
}): WebhookSender {
  const lookup = guardedLookup(options.policy);
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  return {
    async send(rawUrl, headers, body) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const url = checkUrlForm(rawUrl, options.policy);
        const transport = url.protocol === 'https:' ? https : http;
        const agent = agents[url.protocol as 'http:' | 'https:'];
        const answer = await post(transport, url, {
          headers,
          body,
          lookup,
          agent,
          timeoutMs: options.timeoutMs,
        });
        return { ...answer, latencyMs: elapsed(), error: undefined };
      } catch (error) {
        return {
          statusCode: undefined,
          latencyMs: elapsed(),
          error:
            error instanceof Error
              ? `${(error as { code?: string }).code ?? error.name}: ${error.message}`
              : String(error),
          responseExcerpt: undefined,
        };
      }
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

interface PostOptions {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly lookup: ReturnType<typeof guardedLookup>;
  readonly agent: http.Agent;
  readonly timeoutMs: number;
}

function post(transport: typeof http | typeof https, url: URL, options: PostOptions) {
  return new Promise<{ statusCode: number; responseExcerpt: string }>((resolve, reject) => {
    const request = transport.request(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': Buffer.byteLength(options.body).toString() },
      lookup: options.lookup,
      agent: options.agent,
    });
    const deadline = setTimeout(() => {
      request.destroy(
        Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' }),
      );
    }, options.timeoutMs);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) {
          chunks.push(chunk);
          size += chunk.length;
        }
      });
      response.on('end', () => {
        clearTimeout(deadline);
        resolve({
          statusCode: response.statusCode ?? 0,
          responseExcerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
        });
      });
      response.on('error', (error) => {
        clearTimeout(deadline);
        reject(error);
      });
    });
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end(options.body);
  });
}
