import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'openibs_dashboard';
export const DASHBOARD_PATH = '/dashboard';

/** Who is signed in: the label the audit trail records for each action, and until when. */
export interface DashboardSession {
  readonly operator: string;
  readonly expiresAt: number;
}

const OPERATOR_LABEL = /^[A-Za-z0-9._@-]{1,64}$/;

export function isOperatorLabel(label: string): boolean {
  return OPERATOR_LABEL.test(label);
}

export interface SessionCookies {
  open(reply: FastifyReply, operator: string): void;
  read(request: FastifyRequest): DashboardSession | undefined;
  close(reply: FastifyReply): void;
}

/**
 * The session lives in a signed cookie (@fastify/cookie, HMAC-SHA256 with a key derived from the
 * admin token), HttpOnly and SameSite=Strict, scoped to /dashboard, Secure when the public base
 * URL is https. It holds no secret, only the operator label and the expiry; a changed admin token
 * ends every session, because the signatures no longer match.
 */
export function sessionCookies(options: { ttlSeconds: number; secure: boolean; now: () => Date }) {
  const cookieOptions = {
    path: DASHBOARD_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: options.secure,
    signed: true,
  };
  return {
    open(reply, operator) {
      const expiresAt = options.now().getTime() + options.ttlSeconds * 1000;
      // The nonce makes each sign-in's cookie distinct.
      const value = JSON.stringify({
        o: operator,
        e: expiresAt,
        n: randomBytes(8).toString('hex'),
      });
      reply.setCookie(SESSION_COOKIE, value, { ...cookieOptions, maxAge: options.ttlSeconds });
    },
    read(request) {
      const raw = request.cookies[SESSION_COOKIE];
      if (raw === undefined) {
        return undefined;
      }
      const unsigned = request.unsignCookie(raw);
      if (!unsigned.valid || unsigned.value === null) {
        return undefined;
      }
      try {
        const parsed = JSON.parse(unsigned.value) as { o?: unknown; e?: unknown };
        if (typeof parsed.o !== 'string' || !isOperatorLabel(parsed.o)) {
          return undefined;
        }
        if (typeof parsed.e !== 'number' || parsed.e <= options.now().getTime()) {
          return undefined;
        }
        return { operator: parsed.o, expiresAt: parsed.e };
      } catch {
        return undefined;
      }
    },
    close(reply) {
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
    },
  } satisfies SessionCookies;
}
