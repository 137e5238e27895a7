import type { FastifyInstance } from 'fastify';

/**
 * Clients send `Content-Type: application/json` on GET and DELETE with no body; that must not
 * fail. Non-empty bodies go through Fastify's own parser (prototype-poisoning safe).
 */
export function installJsonParser(app: FastifyInstance): void {
  const defaultParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    defaultParser(request, text, done);
  });
}
