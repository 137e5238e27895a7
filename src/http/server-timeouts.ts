import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { HttpServerConfig } from '../config/config.ts';

/**
 * The Fastify options that bound how long a client may take. Fastify sets `requestTimeout`,
 * `keepAliveTimeout` and the idle socket timeout (`connectionTimeout`) on the server it creates;
 * `headersTimeout` and `connectionsCheckingInterval` only reach Node through `http`, the options
 * Fastify passes to `http.createServer`. Node enforces the request and headers deadlines on a
 * timer of `connectionsCheckingInterval` (30 s by default), so without a shorter interval a 1 s
 * deadline could be noticed 30 s late. A request that misses its deadline gets 408 and its
 * connection is closed.
 */
export function serverTimeoutOptions(http: HttpServerConfig) {
  return {
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    connectionTimeout: http.connectionTimeoutMs,
    http: {
      // Node checks headersTimeout <= requestTimeout when the server is created, before Fastify
      // sets requestTimeout on it, so both travel here too.
      requestTimeout: http.requestTimeoutMs,
      headersTimeout: http.headersTimeoutMs,
      keepAliveTimeout: http.keepAliveTimeoutMs,
      connectionsCheckingInterval: http.connectionsCheckIntervalMs,
    },
  } satisfies Partial<FastifyHttpOptions<Server>>;
}
