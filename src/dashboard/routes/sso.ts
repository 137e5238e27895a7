import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../../audit/index.ts';
import type { OperatorDirectory } from '../../auth/operator-directory.ts';
import {
  isPendingSignIn,
  PENDING_SIGN_IN_TTL_MS,
  type SingleSignOn,
  SingleSignOnError,
} from '../../auth/single-sign-on.ts';
import { html } from '../html.ts';
import { signInPage } from '../layout.ts';
import { DASHBOARD_PATH, type SessionCookies } from '../session.ts';

export interface SsoRoutesOptions {
  /** Undefined when no identity provider is configured: the routes answer the sign-in page. */
  readonly singleSignOn: SingleSignOn | undefined;
  readonly operators: Pick<OperatorDirectory, 'signInWithSso'>;
  readonly sessions: SessionCookies;
  readonly auditLog: AuditLog;
  readonly publicBaseUrl: string;
  readonly secureCookies: boolean;
}

const PENDING_COOKIE = 'openibs_sso';
const SSO_PATH = `${DASHBOARD_PATH}/sso`;

const REFUSALS: Record<string, string> = {
  no_role: 'Your organisation gives you no role in this bank. Ask its administrator.',
  disabled: 'Your operator account is disabled. Ask an administrator of this bank.',
  linked_elsewhere: 'This email belongs to another operator of this bank. Ask an administrator.',
};

/**
 * Sign-in through the organisation's identity provider (docs/operators.md): /sso/start keeps
 * what the callback needs (PKCE verifier, state, nonce) in a signed HttpOnly cookie for ten
 * minutes and sends the browser to the provider; /sso/callback checks it, exchanges the code,
 * finds or adds the operator and opens their session. The pending cookie is SameSite=Lax: the
 * callback is a navigation from the provider's site, which a Strict cookie would not reach.
 */
export const ssoRoutes: FastifyPluginAsync<SsoRoutesOptions> = async (app, options) => {
  app.get(`${SSO_PATH}/start`, { schema: { hide: true } }, async (_request, reply) => {
    if (options.singleSignOn === undefined) {
      return refuse(reply, 404, 'Single sign-on is not configured for this bank.');
    }
    const { authorizationUrl, pending } = await options.singleSignOn.start();
    reply.setCookie(PENDING_COOKIE, JSON.stringify(pending), {
      ...pendingCookie(options.secureCookies),
      maxAge: PENDING_SIGN_IN_TTL_MS / 1000,
    });
    return reply.redirect(authorizationUrl, 303);
  });
  app.get(`${SSO_PATH}/callback`, { schema: { hide: true } }, finishSignIn(options));
};

function finishSignIn(options: SsoRoutesOptions) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const pending = readPending(request);
    reply.clearCookie(PENDING_COOKIE, pendingCookie(options.secureCookies));
    if (options.singleSignOn === undefined || pending === undefined) {
      return refuse(reply, 401, 'This sign-in was not started here, or took too long. Try again.');
    }
    const audit = (actor: string, outcome: string) =>
      options.auditLog.record({
        actor,
        action: 'dashboard.sso-sign-in',
        target: null,
        outcome,
        request,
      });
    try {
      const callback = new URL(request.url, options.publicBaseUrl);
      const identity = await options.singleSignOn.finish(callback, pending);
      const operator = await options.operators.signInWithSso(identity);
      if (typeof operator === 'string') {
        await audit(`sso:${identity.email}`, operator);
        return refuse(reply, 403, REFUSALS[operator] ?? 'Refused.');
      }
      await audit(`operator:${operator.email}`, '200');
      await options.sessions.open(reply, operator.email, operator.id);
      return continueToDashboard(reply);
    } catch (error) {
      if (!(error instanceof SingleSignOnError)) {
        throw error;
      }
      await audit('anonymous', error.reason);
      return refuse(reply, 401, 'The identity provider’s answer was refused. Try again.');
    }
  };
}

/**
 * A page that moves on to the dashboard by itself: the session cookie is SameSite=Strict, and a
 * redirect chain that began on the provider's site would not carry it.
 */
function continueToDashboard(reply: FastifyReply) {
  return reply
    .type('text/html; charset=utf-8')
    .send(
      html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${DASHBOARD_PATH}"><title>Signed in</title></head><body><p><a href="${DASHBOARD_PATH}">Continue to the dashboard</a></p></body></html>`
        .value,
    );
}

function refuse(reply: FastifyReply, status: number, error: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(signInPage({ csrf: reply.generateCsrf(), error, breakGlass: false }).value);
}

function readPending(request: FastifyRequest) {
  const raw = request.cookies[PENDING_COOKIE];
  const unsigned = raw === undefined ? undefined : request.unsignCookie(raw);
  if (unsigned?.valid !== true || unsigned.value === null) {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(unsigned.value);
    return isPendingSignIn(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function pendingCookie(secure: boolean) {
  return { path: SSO_PATH, httpOnly: true, sameSite: 'lax' as const, secure, signed: true };
}
