import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AdminApi, type AdminFailure, type AdminOutcome, adminCaller } from './admin-call.ts';
import { type Html, html } from './html.ts';
import { type Notice, type PageFrame, page } from './layout.ts';
import { DASHBOARD_PATH } from './session.ts';

const NOTICE_COOKIE = 'openibs_dashboard_notice';

/** What every dashboard route is handed: the admin API as the signed-in operator, and the page. */
export interface DashboardTools {
  readonly admin: AdminApi;
  readonly operator: string;
  readonly csrf: string;
  readonly sandbox: boolean;
  /** Sends a whole page (or only `live` parts when the browser polls with ?fragment=1). */
  render(
    frame: Omit<PageFrame, 'operator' | 'csrf' | 'sandbox' | 'notice'>,
    body: Html,
  ): FastifyReply;
  /** After an action: back to a page, with a notice shown once. */
  redirect(to: string, notice: Notice): FastifyReply;
  /** An admin answer that is not a success, as a page. */
  failed(answer: AdminFailure, title: string): FastifyReply;
  /** Whether the browser asked for only the live part of the page. */
  readonly fragment: boolean;
}

export type ToolsFor = (request: FastifyRequest, reply: FastifyReply) => DashboardTools;

export interface ToolsDeps {
  readonly app: FastifyInstance;
  readonly sandbox: boolean;
  readonly secureCookies: boolean;
}

export function toolsFor(deps: ToolsDeps): ToolsFor {
  return (request, reply) => {
    const operator = request.dashboardOperator;
    const csrf = reply.generateCsrf();
    const fragment = (request.query as Record<string, unknown> | undefined)?.fragment === '1';
    const notice = readNotice(request, reply);
    const sendHtml = (body: Html) => reply.type('text/html; charset=utf-8').send(body.value);
    return {
      admin: adminCaller(deps.app, request.dashboardCredential, request),
      operator,
      csrf,
      sandbox: deps.sandbox,
      fragment,
      render(frame, body) {
        if (fragment) {
          return sendHtml(body);
        }
        return sendHtml(page({ ...frame, operator, csrf, sandbox: deps.sandbox, notice }, body));
      },
      redirect(to, next) {
        reply.setCookie(NOTICE_COOKIE, JSON.stringify(next), {
          path: DASHBOARD_PATH,
          httpOnly: true,
          sameSite: 'strict',
          secure: deps.secureCookies,
          signed: true,
          maxAge: 60,
        });
        return reply.redirect(to, 303);
      },
      failed(answer, title) {
        reply.status(answer.statusCode);
        return sendHtml(
          page(
            {
              title,
              operator,
              csrf,
              sandbox: deps.sandbox,
              notice: { kind: 'error', text: `${answer.message} (HTTP ${answer.statusCode})` },
            },
            html`<p><a href="${DASHBOARD_PATH}">Back to the overview</a></p>`,
          ),
        );
      },
    };
  };
}

/** The notice an action left for the next page, once. */
function readNotice(request: FastifyRequest, reply: FastifyReply): Notice | undefined {
  const raw = request.cookies[NOTICE_COOKIE];
  if (raw === undefined) {
    return undefined;
  }
  reply.clearCookie(NOTICE_COOKIE, { path: DASHBOARD_PATH });
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) {
    return undefined;
  }
  try {
    const parsed = JSON.parse(unsigned.value) as Partial<Notice>;
    return (parsed.kind === 'success' || parsed.kind === 'error') && typeof parsed.text === 'string'
      ? { kind: parsed.kind, text: parsed.text.slice(0, 500) }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The notice for an admin answer to an action. An action held under four eyes (202) is not an
 * error: it says it was sent for approval, and the approval's id.
 */
export function noticeOf(answer: AdminOutcome, success: string): Notice {
  if (answer.ok) {
    return { kind: 'success', text: success };
  }
  return answer.statusCode === 202
    ? { kind: 'success', text: answer.message }
    : { kind: 'error', text: `${answer.message} (HTTP ${answer.statusCode})` };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator's label (set by the dashboard's session guard). */
    dashboardOperator: string;
    /** The signed-in session as the admin API's credential (session.ts). */
    dashboardCredential: string;
    /** The signed-in operator as the audit trail names them. */
    dashboardActor: string;
  }
}
