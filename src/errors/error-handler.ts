import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorDetail } from './app-error.ts';
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

/** The only place that builds error bodies. Stack traces and SQL never leave the process. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.httpStatus >= 500) {
      request.log.error({ err: error }, 'request failed');
    }
    if (appError.headers !== undefined) {
      reply.headers(appError.headers);
    }
    return reply.status(appError.httpStatus).send(renderError(appError));
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new AppError('ROUTE_NOT_FOUND', `Cannot ${request.method} ${request.url}`);
    return reply.status(404).send(renderError(error));
  });
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
  return new AppError('INTERNAL_ERROR', ERROR_CODES.INTERNAL_ERROR.message, { cause: error });
}

const FRAMEWORK_ERRORS: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_ERROR',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_ERROR',
};

function validationError(error: FastifyError): AppError {
  const details = (error.validation ?? []).map((issue) => ({
    field: fieldName(issue.instancePath, issue.params),
    // Ajv says "must have required property 'x'"; the field already names x.
    message: issue.keyword === 'required' ? 'is required' : (issue.message ?? 'is invalid'),
  }));
  const first = details[0];
  const message = first === undefined ? 'Invalid request.' : `${first.field} ${first.message}`;
  return new AppError('VALIDATION_ERROR', message, { details, cause: error });
}

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
