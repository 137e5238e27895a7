import type { FastifyRequest } from 'fastify';

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
