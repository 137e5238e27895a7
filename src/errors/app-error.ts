import { ERROR_CODES, type ErrorCode } from './error-codes.ts';

export interface ErrorDetail {
  readonly field: string;
  readonly message: string;
}

interface AppErrorOptions {
  readonly details?: readonly ErrorDetail[];
  readonly cause?: unknown;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A failure the caller caused or should be told about; anything else is a 500. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly details: readonly ErrorDetail[] | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(code: ErrorCode, message?: string, options: AppErrorOptions = {}) {
    super(message ?? ERROR_CODES[code].message, { cause: options.cause });
    this.code = code;
    this.httpStatus = ERROR_CODES[code].httpStatus;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export function recordNotFound(): AppError {
  return new AppError('RECORD_NOT_FOUND');
}

/** What a 503 DATABASE_UNAVAILABLE tells callers to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The 503 answered while the database is unreachable, with a Retry-After. */
export function databaseUnavailable(cause?: unknown): AppError {
  return new AppError('DATABASE_UNAVAILABLE', undefined, {
    cause,
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

/** What a 503 SERVER_BUSY tells callers to wait before trying again: a full queue drains fast. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The 503 a money movement gets when the queue of its kind waiting for the database is full
 * (db/group-commit.ts, GROUP_COMMIT_MAX_WAITING): refused before anything of it was done.
 */
export function serverBusy(): AppError {
  return new AppError('SERVER_BUSY', undefined, {
    headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
  });
}
