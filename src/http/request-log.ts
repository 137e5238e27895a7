import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

const SECRET_PARAM = /token|secret|assertion|password|key|signature|code/i;

/**
 * How a request is logged: Fastify's usual fields, with the value of every query parameter whose
 * name suggests a credential replaced, so a token sent in a URL (which OpenIBS never accepts)
 * does not land in the logs either.
 */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: maskQuery(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function maskQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) {
    return url;
  }
  const query = new URLSearchParams(url.slice(at + 1));
  for (const name of new Set(query.keys())) {
    if (SECRET_PARAM.test(name)) {
      query.set(name, '[redacted]');
    }
  }
  return `${url.slice(0, at)}?${query.toString()}`;
}

/**
 * One line per request, written when the answer has gone: the request (as requestForLog shows
 * it), the status and the milliseconds taken. Fastify's default writes a line when a request
 * arrives and another when it is answered: the second carried nothing the first did not, and
 * every request paid for two lines. Fastify's other request lines (a 404's "route not found",
 * its default error handler's) stay off, as OpenIBS answers those itself.
 */
export class OneLineRequestLog extends LogController {
  constructor() {
    super({ disableRequestLogging: true });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) {
      reply.log.error({ ...line, err: error }, 'request errored');
    } else {
      reply.log.info(line, 'request completed');
    }
  }
}
