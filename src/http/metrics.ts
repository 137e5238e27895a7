import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';
import { AppError } from '../errors/app-error.ts';
import { constantTimeEqual } from '../shared/hashing.ts';

/** The route label of a request no route matched: never its URL, which the caller chose. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Seconds. The API answers most requests in a few milliseconds, so the buckets are fine there;
 * the tail reaches the request timeout (a rail or a biller that is slow to answer).
 */
const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

const REQUESTS = 'openibs_http_requests_total';
const DURATION = 'openibs_http_request_duration_seconds';

/**
 * Counts every answered request and times it, by the route's pattern (`/accounts/:id`, never the
 * URL: the labels stay few). On the root instance, before any route is registered, so every
 * route and the 404 handler are seen. The registry is the service graph's (services.ts): a
 * second app on the same graph (a test's) counts into the same series.
 */
export function installRequestMetrics(app: FastifyInstance, registry: Registry): void {
  const requests =
    (registry.getSingleMetric(REQUESTS) as
      | Counter<'method' | 'route' | 'status_code'>
      | undefined) ??
    new Counter({
      name: REQUESTS,
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      registers: [registry],
    });
  const duration =
    (registry.getSingleMetric(DURATION) as Histogram<'method' | 'route'> | undefined) ??
    new Histogram({
      name: DURATION,
      help: 'Time from receiving a request to sending its answer, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    const method = request.method;
    requests.inc({ method, route, status_code: String(reply.statusCode) });
    duration.observe({ method, route }, reply.elapsedTime / 1000);
    done();
  });
}

export interface MetricsRouteOptions {
  readonly registry: Registry;
  /** When set, a scrape must send `Authorization: Bearer <token>` (METRICS_TOKEN). */
  readonly token: string | undefined;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * GET /metrics in the Prometheus text format. Off the API reference: it shows the traffic and
 * the backlogs. With a token, a scrape without it (or with another) is 401.
 */
export const metricsRoute: FastifyPluginAsync<MetricsRouteOptions> = async (
  app,
  { registry, token },
) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (token !== undefined) {
      const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
      if (presented === undefined || !constantTimeEqual(presented, token)) {
        throw new AppError('UNAUTHORIZED', 'A valid metrics token is required.');
      }
    }
    const body = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(body);
  });
};
