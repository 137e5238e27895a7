import { sqlState } from './db.ts';

/** Socket errors: the database is down, restarting, or the network to it is. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a database that went away or cannot take the work now: admin shutdown (a
 * restart terminates every backend with it), crash shutdown, starting up, and a read-only
 * database (a standby, or one set read-only while its disk is full or during a failover:
 * `25006`). Class 08 (connection exception) and class 53 (insufficient resources: disk full,
 * out of memory, too many connections) are matched as a whole. None of these is the request's
 * fault, and each transaction they stop has rolled back.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '25006']);

/** node-postgres and pg-pool raise these as plain errors, without a code. */
const DRIVER_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  // The client's own connect timeout (connectionTimeoutMillis on the client).
  'timeout expired',
]);

const MAX_DEPTH = 4;

/**
 * True when the error means "the database cannot be reached right now" (down, restarting,
 * unreachable, connection dropped), as opposed to an error in the statement itself. Looks through
 * `cause` and AggregateError's `errors` (a host name resolving to several addresses).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) {
    return false;
  }
  const code = sqlState(error);
  if (code !== undefined) {
    if (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) {
      return true;
    }
    if (/^(08|53)[0-9A-Z]{3}$/.test(code)) {
      return true;
    }
  }
  if (error instanceof Error && DRIVER_MESSAGES.has(error.message)) {
    return true;
  }
  if (
    error instanceof AggregateError &&
    error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))
  ) {
    return true;
  }
  return 'cause' in error && isDatabaseUnavailable(error.cause, depth + 1);
}
