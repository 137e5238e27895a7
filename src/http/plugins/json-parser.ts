import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import { decodeUtf8Strictly } from '../../shared/storable-text.ts';

/**
 * Clients send `Content-Type: application/json` on GET and DELETE with no body; that must not
 * fail. Non-empty bodies go through Fastify's own parser (prototype-poisoning safe), after their
 * bytes are read as strict UTF-8: bytes that are not UTF-8 are refused, where a lenient decoder
 * would store U+FFFD in their place.
 */
export function installJsonParser(app: FastifyInstance): void {
  const defaultParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = decodeUtf8Strictly(body as Buffer);
    if (text === undefined) {
      done(new AppError('INVALID_JSON', 'The request body is not valid UTF-8 text.'), undefined);
      return;
    }
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    defaultParser(request, text, done);
  });
}
