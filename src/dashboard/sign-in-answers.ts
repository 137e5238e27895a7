import type { FastifyReply } from 'fastify';
import { signInPage } from './layout.ts';

/** Whether the shared admin token still signs in (docs/operators.md, break-glass). */
export type BreakGlassOpen = () => Promise<boolean>;

/** The ways in the sign-in page offers beside an operator's own password. */
export interface SignInChoices {
  readonly breakGlassOpen: BreakGlassOpen;
  /** The organisation's identity provider (undefined: no single sign-on). */
  readonly singleSignOn?: unknown;
}

/**
 * The sign-in page at a status, with what went wrong or what to do next; single sign-on when an
 * identity provider is configured, the admin token's form only while break-glass is open.
 */
export async function showSignIn(
  reply: FastifyReply,
  choices: SignInChoices,
  status: number,
  message: { error?: string; notice?: string } = {},
) {
  const page = signInPage({
    csrf: reply.generateCsrf(),
    error: message.error,
    notice: message.notice,
    breakGlass: await choices.breakGlassOpen(),
    singleSignOn: choices.singleSignOn !== undefined,
  });
  return reply.status(status).type('text/html; charset=utf-8').send(page.value);
}
