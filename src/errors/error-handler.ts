import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { AppError, databaseUnavailable, type ErrorDetail } from './app-error.ts';
import { ERROR_CODES, type ErrorCode, OAUTH_ERROR_NAMES } from './error-codes.ts';

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  error_description: string;
  code: ErrorCode;
  details?: readonly ErrorDetail[];
}

export function renderError(error: AppError): ErrorBody {
  const body: ErrorBody = {
    statusCode: error.httpStatus,
    error: OAUTH_ERROR_NAMES[error.code] ?? STATUS_CODES[error.httpStatus] ?? 'Error',
    message: error.message,
    error_description: error.message,
    code: error.code,
  };
  if (error.details !== undefined) {
    body.details = error.details;
  }
  return body;
}

/**
 * The only place that builds error bodies. Stack traces and SQL never leave the process.
 * `crossedReset` (sandbox): whether a sandbox reset ran while the request was handled; such a
 * request that fails answers SANDBOX_RESET, whatever its failure, which described the world the
 * reset took away (an account gone under a prepared transfer, a transfer gone before its answer).
 */
export function installErrorHandlers(
  app: FastifyInstance,
  options: { readonly crossedReset?: (request: FastifyRequest) => boolean } = {},
): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = afterReset(toAppError(error), request, options.crossedReset);
    // An outage or an overload answers hundreds of requests a second: one line each, no stack.
    if (appError.code === 'DATABASE_UNAVAILABLE') {
      request.log.warn({ code: appError.code }, 'request refused: database unavailable');
    } else if (appError.code === 'SERVER_BUSY') {
      request.log.warn(
        { code: appError.code },
        'request refused: too many waiting for the database',
      );
    } else if (appError.httpStatus >= 500) {
      request.log.error({ err: error }, 'request failed');
    }
    if (appError.headers !== undefined) {
      reply.headers(appError.headers);
    }
    return reply.status(appError.httpStatus).send(renderError(appError));
  });
  // The URL is never echoed: it may carry secrets in its query, and it is the caller's own input.
  app.setNotFoundHandler((request, reply) => {
    const error = new AppError(
      'ROUTE_NOT_FOUND',
      `No route for ${request.method} ${routePath(request.url)}.`,
    );
    return reply.status(404).send(renderError(error));
  });
}

/**
 * Errors Fastify's router meets before any route runs (Fastify's `frameworkErrors` option): a bad
 * percent-encoding is INVALID_URL; a path parameter over the router's length limit can only be a
 * malformed id, which the contract answers as an unknown record. No hook runs for these answers:
 * the caller of this function adds the headers every answer carries.
 */
export function frameworkErrorOf(error: FastifyError): AppError {
  return error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? new AppError('RECORD_NOT_FOUND', undefined, { cause: error })
    : new AppError('INVALID_URL', undefined, { cause: error });
}

export function renderFrameworkError(error: FastifyError, reply: FastifyReply) {
  const appError = frameworkErrorOf(error);
  return reply.status(appError.httpStatus).send(renderError(appError));
}

/**
 * Errors Node's HTTP parser meets before Fastify has a request (Fastify's `clientErrorHandler`):
 * a body or headers that missed their deadline, oversized headers, malformed HTTP. Answered in
 * the same envelope, with a fresh request id, then the connection is closed.
 */
export function renderClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) {
    return;
  }
  const appError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new AppError('REQUEST_TIMEOUT')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('HEADERS_TOO_LARGE')
        : new AppError('VALIDATION_ERROR', 'The HTTP request is malformed.');
  if (socket.writable) {
    const body = JSON.stringify(renderError(appError));
    socket.write(
      `HTTP/1.1 ${appError.httpStatus} ${STATUS_CODES[appError.httpStatus]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\nX-Content-Type-Options: nosniff\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** The path alone, and only when it is short plain text, for the "no route" message. */
function routePath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return /^[A-Za-z0-9/._~-]{1,100}$/.test(path) ? path : 'this path';
}

/** Authentication and rate limits are about the request, not the world: they stay as they are. */
function afterReset(
  error: AppError,
  request: FastifyRequest,
  crossedReset: ((request: FastifyRequest) => boolean) | undefined,
): AppError {
  const aboutTheWorld = error.httpStatus !== 401 && error.httpStatus !== 429;
  return aboutTheWorld && crossedReset?.(request) === true
    ? new AppError('SANDBOX_RESET', undefined, { cause: error })
    : error;
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) {
    return error;
  }
  if (error.validation !== undefined) {
    return validationError(error);
  }
  const frameworkCode = FRAMEWORK_ERRORS[error.code];
  if (frameworkCode !== undefined) {
    return new AppError(frameworkCode, undefined, { cause: error });
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('VALIDATION_ERROR', sanitizeClientMessage(error.message), { cause: error });
  }
  if (isDatabaseUnavailable(error)) {
    return databaseUnavailable(error);
  }
  return new AppError('INTERNAL_ERROR', ERROR_CODES.INTERNAL_ERROR.message, { cause: error });
}

const FRAMEWORK_ERRORS: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
};

function validationError(error: FastifyError): AppError {
  const details = (error.validation ?? []).map((issue) => ({
    field: fieldName(issue.instancePath, issue.params),
    // Ajv says "must have required property 'x'"; the field already names x.
    message: issue.keyword === 'required' ? 'is required' : (issue.message ?? 'is invalid'),
  }));
  const first = details[0];
  const message = first === undefined ? 'Invalid request.' : `${first.field} ${first.message}`;
  // Money fields keep their own code whatever was wrong with them (a string, a boolean, ...).
  const code =
    first !== undefined && AMOUNT_FIELD.test(first.field) ? 'INVALID_AMOUNT' : 'VALIDATION_ERROR';
  return new AppError(code, message, { details, cause: error });
}

const AMOUNT_FIELD = /(^|\.)(amount|[A-Za-z]+Amount)$/;

function fieldName(instancePath: string, params: Record<string, unknown>): string {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing = params.missingProperty;
  if (typeof missing === 'string') {
    return path === '' ? missing : `${path}.${missing}`;
  }
  const extra = params.additionalProperty;
  if (typeof extra === 'string') {
    return path === '' ? extra : `${path}.${extra}`;
  }
  return path === '' ? 'body' : path;
}

/** Framework 4xx messages are safe, but keep them short and single-line. */
function sanitizeClientMessage(message: string): string {
  return message.split('\n')[0]?.slice(0, 200) ?? 'Invalid request.';
}
