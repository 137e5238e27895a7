import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { pino } from 'pino';
import { maskQuery, OneLineRequestLog, requestForLog } from './request-log.ts';

describe('maskQuery', () => {
  it('hides the value of credential-like query parameters', () => {
    assert.equal(
      maskQuery('/accounts?access_token=eyJabc&page=2&client_secret=s3cr3t'),
      '/accounts?access_token=%5Bredacted%5D&page=2&client_secret=%5Bredacted%5D',
    );
  });

  it('leaves other URLs as they are', () => {
    assert.equal(maskQuery('/transfers?page=1&limit=10'), '/transfers?page=1&limit=10');
    assert.equal(maskQuery('/accounts/abc'), '/accounts/abc');
  });
});

describe('OneLineRequestLog', () => {
  interface Line {
    msg: string;
    req: { url: string };
    res: { statusCode: number };
    responseTime: unknown;
    err?: { message: string };
  }

  async function logged(url: string, onResponseFails = false): Promise<Line[]> {
    const lines: Line[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const app = Fastify({
      loggerInstance: pino({ serializers: { req: requestForLog } }, stream),
      logController: new OneLineRequestLog(),
    });
    app.get('/accounts/:id', async () => ({ ok: true }));
    app.post('/transfers', async () => ({ ok: true }));
    if (onResponseFails) {
      app.addHook('onResponse', async () => {
        throw new Error('metrics store unavailable');
      });
    }
    await app.inject(
      url === '/transfers'
        ? {
            method: 'POST',
            url,
            headers: { authorization: 'Bearer secret-token', clientid: 'secret-client' },
            payload: { pin: 'secret-pin' },
          }
        : { method: 'GET', url },
    );
    await app.close();
    return lines;
  }

  it('writes one line once a request is answered, with the request, status and time', async () => {
    const lines = await logged('/accounts/a1?access_token=abc');
    assert.equal(lines.length, 1);
    const [line] = lines as [Line];
    assert.equal(line.msg, 'request completed');
    assert.equal(line.req.url, '/accounts/a1?access_token=%5Bredacted%5D');
    assert.equal(line.res.statusCode, 200);
    assert.equal(typeof line.responseTime, 'number');
  });

  it('writes only the fields it names of a request: no header, no body', async () => {
    // The serializer is the only guard (no pino redact paths behind it): src/start.ts.
    const lines = await logged('/transfers');
    assert.equal(lines.length, 1);
    const [line] = lines as [Line];
    // (An injected request has no remote port: JSON leaves the undefined field out.)
    assert.deepEqual(Object.keys(line.req).sort(), ['host', 'method', 'remoteAddress', 'url']);
    assert.doesNotMatch(JSON.stringify(line), /secret/);
  });

  it('writes one line for a path no route serves, not a second "route not found"', async () => {
    const lines = await logged('/nowhere');
    assert.deepEqual(
      lines.map((line) => line.msg),
      ['request completed'],
    );
  });

  it('writes the one line as an error, with the error, when an onResponse hook fails', async () => {
    const lines = await logged('/accounts/a1', true);
    assert.deepEqual(
      lines.map((line) => [line.msg, line.err?.message, line.res.statusCode]),
      [['request errored', 'metrics store unavailable', 200]],
    );
  });
});
