import type { FastifyReply } from 'fastify';
import { signInPage } from './layout.ts';

/** Whether the shared admin token still signs in (docs/operators.md, break-glass). */
export type BreakGlassOpen = () => Promise<boolean>;

/**
 * The sign-in page at a status, with what went wrong or what to do next; the admin token's form
 * is on it only while break-glass is open.
 */
export async function showSignIn(
  reply: FastifyReply,
  breakGlassOpen: BreakGlassOpen,
  status: number,
  message: { error?: string; notice?: string } = {},
) {
  const page = signInPage({
    csrf: reply.generateCsrf(),
    error: message.error,
    notice: message.notice,
    breakGlass: await breakGlassOpen(),
  });
  return reply.status(status).type('text/html; charset=utf-8').send(page.value);
}
