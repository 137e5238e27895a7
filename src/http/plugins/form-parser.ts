import { parse } from 'node:querystring';
import { AppError } from '../../errors/app-error.ts';
import { percentEncodingProblem } from '../../shared/storable-text.ts';

/**
 * Form bodies (the token endpoint, the dashboard's forms), for `@fastify/formbody`: a broken
 * percent-encoding, escaped bytes that are not UTF-8 or an escaped NUL is refused, as in a query
 * string, where a lenient parser would keep the escapes as text.
 */
export function parseFormBody(text: string): Record<string, unknown> {
  const message = percentEncodingProblem(text);
  if (message !== undefined) {
    throw new AppError('VALIDATION_ERROR', `body ${message}`, {
      details: [{ field: 'body', message }],
    });
  }
  return parse(text, '&', '=', { maxKeys: 0 });
}
