import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers carry balances, names and identity data: no cache may keep them, and no browser may
 * sniff them into something other than what they are. Static documentation assets that set their
 * own caching keep it.
 */
export function addPrivacyHeaders(_request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  if (!reply.hasHeader('cache-control')) {
    reply.header('cache-control', 'no-store');
  }
}
