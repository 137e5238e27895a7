import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardSessions } from '../auth/dashboard-sessions.ts';
import { SESSION_CREDENTIAL_PREFIX } from '../auth/operator-directory.ts';

export const SESSION_COOKIE = 'openibs_dashboard';
export const DASHBOARD_PATH = '/dashboard';

/** Who is signed in, and the credential the dashboard's admin calls carry for them. */
export interface DashboardSession {
  /** The operator's email, or a break-glass sign-in's name: what pages show. */
  readonly operator: string;
  /** How the audit trail names them: `operator:<email>`, or `break-glass:<name>`. */
  readonly actor: string;
  /** The session as an admin API credential: the admin API finds the operator from it. */
  readonly credential: string;
}

const OPERATOR_LABEL = /^[A-Za-z0-9._@-]{1,64}$/;

export function isOperatorLabel(label: string): boolean {
  return OPERATOR_LABEL.test(label);
}

export interface SessionCookies {
  open(reply: FastifyReply, operator: string, operatorId?: string | null): Promise<void>;
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
    async open(reply, operator, operatorId = null) {
      const { secret } = await options.store.open(operator, operatorId);
      reply.setCookie(SESSION_COOKIE, secret, { ...cookieOptions, maxAge: options.ttlSeconds });
    },
    async read(request) {
      const secret = secretOf(request);
      if (secret === undefined) {
        return undefined;
      }
      const session = await options.store.find(secret);
      return session === undefined
        ? undefined
        : {
            operator: session.operator,
            actor: `${session.operatorId === null ? 'break-glass' : 'operator'}:${session.operator}`,
            credential: `${SESSION_CREDENTIAL_PREFIX}${secret}`,
          };
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
