import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { codeFile } from '../../../shared/code-files.ts';

const ASSETS = codeFile('modules/checkout/assets/');
const read = (name: string) => readFileSync(new URL(name, ASSETS), 'utf8');

/**
 * The browser side of checkout, served by OpenIBS itself (no external assets, so it works
 * offline): the widget script a merchant page loads (at /assets/checkout.min.js and, where a
 * published React wrapper looks for it, /checkout), and the hosted payment page the widget
 * frames, with its script and styles.
 */
export const checkoutAssetRoutes: FastifyPluginAsync = async (app) => {
  const widget = read('checkout.js');
  const page = read('page.html');
  const pageScript = read('page.js');
  const pageStyle = read('page.css');
  const script = 'application/javascript; charset=utf-8';
  for (const path of ['/assets/checkout.min.js', '/checkout']) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(script)
        .header('cache-control', 'public, max-age=300')
        // Loaded by merchant pages on any origin.
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(widget),
    );
  }
  app.get('/assets/checkout-page.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(script).header('cache-control', 'public, max-age=300').send(pageScript),
  );
  app.get('/assets/checkout-page.css', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(pageStyle),
  );
  app.get('/checkout/pay/:id', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      // Its own script and styles only; the merchant's icon from anywhere; framed by any
      // merchant page (the session token, in the fragment, is what opens the session).
      .header(
        'content-security-policy',
        "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'; frame-ancestors *; base-uri 'none'; form-action 'none'",
      )
      .header('referrer-policy', 'no-referrer')
      .send(page),
  );
};
