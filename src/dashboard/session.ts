import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardSessions } from '../auth/dashboard-sessions.ts';

export const SESSION_COOKIE = 'openibs_dashboard';
export const DASHBOARD_PATH = '/dashboard';

/** Who is signed in: the label the audit trail records for each action. */
export interface DashboardSession {
  readonly operator: string;
}

const OPERATOR_LABEL = /^[A-Za-z0-9._@-]{1,64}$/;

export function isOperatorLabel(label: string): boolean {
  return OPERATOR_LABEL.test(label);
}

export interface SessionCookies {
  open(reply: FastifyReply, operator: string): Promise<void>;
  read(request: FastifyRequest): Promise<DashboardSession | undefined>;
  close(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** What a cookie may carry: the session's secret (base64url), nothing else is looked up. */
const SECRET = /^[A-Za-z0-9_-]{20,64}$/;

/**
 * The session lives on the server (`DashboardSessions`, one table every server process reads);
 * the cookie carries only its random secret, signed (@fastify/cookie, HMAC-SHA256 with a key
 * derived from the admin token), HttpOnly and SameSite=Strict, scoped to /dashboard, Secure when
 * the public base URL is https. Every request looks the session up, so signing out (or the
 * operator API's end-all) ends it on every process, copied cookies included; a changed admin
 * token ends every session too, because the signatures no longer match.
 */
export function sessionCookies(options: {
  ttlSeconds: number;
  secure: boolean;
  store: DashboardSessions;
}) {
  const cookieOptions = {
    path: DASHBOARD_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: options.secure,
    signed: true,
  };
  const secretOf = (request: FastifyRequest): string | undefined => {
    const raw = request.cookies[SESSION_COOKIE];
    if (raw === undefined) {
      return undefined;
    }
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value !== null && SECRET.test(unsigned.value)
      ? unsigned.value
      : undefined;
  };
  return {
    async open(reply, operator) {
      const { secret } = await options.store.open(operator);
      reply.setCookie(SESSION_COOKIE, secret, { ...cookieOptions, maxAge: options.ttlSeconds });
    },
    async read(request) {
      const secret = secretOf(request);
      if (secret === undefined) {
        return undefined;
      }
      const session = await options.store.find(secret);
      return session === undefined ? undefined : { operator: session.operator };
    },
    async close(request, reply) {
      const secret = secretOf(request);
      if (secret !== undefined) {
        await options.store.end(secret);
      }
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
    },
  } satisfies SessionCookies;
}
