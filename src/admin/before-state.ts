import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { adminRouteUrl } from './contract/index.ts';

/** Marks the admin API's own reads of a before-state, made in process with app.inject. */
const BEFORE_READ_HEADER = 'x-openibs-before-read';

export interface BeforeStateReads {
  /**
   * The record an action is about to change, as the read route its contract entry names
   * answers it with the action's own path parameters, by the same operator's credential. The
   * answer's text: undefined when the action names no read or the record does not exist yet.
   */
  read(request: FastifyRequest): Promise<string | undefined>;
  /** Whether a request is one of these reads: the admin guard lets it past the role check. */
  isBeforeRead(request: FastifyRequest): boolean;
}

/**
 * The before-state of an operator action is read through the admin API itself, so it has the
 * shape an operator reads (views own the wire shape, viewer masking included). The read is
 * made for the audit trail, not by the operator's choice: the operator's credential must still
 * be valid, but the read route's role is not theirs to need (a security operator ending an
 * operator's sessions cannot read operators, yet the trail keeps who the operator was). The
 * marker is a random secret of this process, sent only in process; a caller from outside
 * cannot present it. Read just before the action runs, not under its locks: a change racing
 * the action may show in neither state (docs/operators.md).
 */
export function createBeforeStateReads(
  readRouteOf: (routeKey: string) => string | undefined,
): BeforeStateReads {
  const marker = randomBytes(32).toString('base64url');
  const markerBytes = Buffer.from(marker);
  return {
    async read(request) {
      const readRoute = readRouteOf(`${request.method} ${request.routeOptions.url}`);
      if (readRoute === undefined) {
        return undefined;
      }
      const operatorLabel = request.headers['x-operator'];
      const response = await request.server.inject({
        method: 'GET',
        url: adminRouteUrl(readRoute, (request.params ?? {}) as Record<string, unknown>),
        remoteAddress: request.ip,
        headers: {
          authorization: request.headers.authorization ?? '',
          'x-request-id': request.id,
          [BEFORE_READ_HEADER]: marker,
          ...(typeof operatorLabel === 'string' ? { 'x-operator': operatorLabel } : {}),
        },
      });
      if (response.statusCode === 200) {
        return response.body;
      }
      // The contract answers an unknown record with 400 RECORD_NOT_FOUND, as the published API.
      return notFound(response.body)
        ? undefined
        : JSON.stringify({ data: { unread: response.statusCode } });
    },
    isBeforeRead(request) {
      const presented = request.headers[BEFORE_READ_HEADER];
      if (request.method !== 'GET' || typeof presented !== 'string') {
        return false;
      }
      const bytes = Buffer.from(presented);
      return bytes.length === markerBytes.length && timingSafeEqual(bytes, markerBytes);
    },
  };
}

function notFound(body: string): boolean {
  try {
    return (JSON.parse(body) as { code?: unknown }).code === 'RECORD_NOT_FOUND';
  } catch {
    return false;
  }
}
