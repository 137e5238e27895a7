import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import { html } from './html.ts';
import { DASHBOARD_PATH } from './session.ts';

/**
 * Errors inside the dashboard answer as a page, not as the API's JSON envelope: a bad form (400),
 * a missing or stale CSRF token (403), too many attempts (429). An AppError keeps its own status
 * and headers (a 429's or a 503's Retry-After), as it does in the API. Anything unexpected is
 * logged and shown without its details.
 */
export function errorPage(
  error: { statusCode?: number; message: string; code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const status = statusOf(error);
  if (error instanceof AppError && error.headers !== undefined) {
    reply.headers(error.headers);
  }
  if (status >= 500) {
    request.log.error({ err: error }, 'dashboard page failed');
  }
  const message =
    status >= 500
      ? 'Something went wrong; the server log has the details.'
      : error.code?.startsWith('FST_CSRF') === true
        ? 'This form has expired or did not come from this dashboard. Reload the page and try again.'
        : error.message;
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(
      html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error ${status} · OpenIBS dashboard</title><link rel="stylesheet" href="${DASHBOARD_PATH}/assets/dashboard.css"></head>
<body><main id="main"><h1>Error ${status}</h1><p class="notice notice-error" role="alert">${message}</p>
<p><a href="${DASHBOARD_PATH}">Back to the dashboard</a></p></main></body></html>`.value,
    );
}

function statusOf(error: { statusCode?: number }): number {
  if (error instanceof AppError) {
    return error.httpStatus;
  }
  return error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
}
