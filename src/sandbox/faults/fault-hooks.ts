import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import { renderError } from '../../errors/error-handler.ts';
import type { FaultKind, FaultTable } from './fault-table.ts';

/**
 * How long a `timeout` fault holds a connection at most, if neither the client nor the server's
 * own idle timeout (HTTP_CONNECTION_TIMEOUT_MS) closes it first.
 */
export const TIMEOUT_HOLD_MAX_MS = 300_000;

/**
 * Makes the routes registered in `app` after this call fail as the fault table says, for the
 * client whose access token the call carries (so this goes after the authentication hook):
 *
 * - `503`, `500`, `429` answer in the error envelope at once; the handler never runs.
 * - `timeout` never answers: the connection is held until the client gives up (or the server's
 *   idle timeout, or TIMEOUT_HOLD_MAX_MS, or the server closing, ends it).
 * - `commit-then-drop` and `commit-then-504` run the handler (a transfer is placed and committed),
 *   then close the connection without an answer, or answer 504 instead of what it said.
 */
export function installSandboxFaults(app: FastifyInstance, table: FaultTable): void {
  const afterHandler = new WeakMap<FastifyRequest, FaultKind>();
  const held = new Set<Socket>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      table.knowRoute(method, route.url);
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    const fault =
      url === undefined ? undefined : table.take(request.principal.clientId, request.method, url);
    if (fault === undefined) {
      return;
    }
    switch (fault.fault) {
      case '503':
        throw new AppError('SERVICE_UNAVAILABLE');
      case '500':
        throw new AppError('INTERNAL_ERROR');
      case '429':
        throw new AppError('RATE_LIMITED', undefined, {
          headers: { 'retry-after': String(fault.retryAfterSeconds) },
        });
      case 'timeout':
        return hold(request, reply, held);
      default:
        afterHandler.set(request, fault.fault);
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const fault = afterHandler.get(request);
    if (fault === 'commit-then-504') {
      reply.code(504).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(renderError(new AppError('GATEWAY_TIMEOUT')));
    }
    if (fault === 'commit-then-drop') {
      // The work is done and committed; the answer never leaves.
      request.raw.socket.destroy();
    }
    return payload;
  });
  app.addHook('preClose', async () => {
    for (const socket of held) {
      socket.destroy();
    }
  });
}

/** Takes the request out of Fastify's hands and keeps its connection open, answering nothing. */
function hold(request: FastifyRequest, reply: FastifyReply, held: Set<Socket>): FastifyReply {
  reply.hijack();
  const socket = request.raw.socket;
  held.add(socket);
  const timer = setTimeout(() => socket.destroy(), TIMEOUT_HOLD_MAX_MS);
  timer.unref();
  socket.once('close', () => {
    clearTimeout(timer);
    held.delete(socket);
  });
  return reply;
}
