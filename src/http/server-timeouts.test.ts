import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { loadConfig } from '../config/config.ts';
import { serverTimeoutOptions } from './server-timeouts.ts';

/** Writes raw bytes and collects what the server answers until it closes (or `waitMs` passes). */
function rawExchange(port: number, chunks: string[], waitMs: number) {
  return new Promise<{ answer: string; closed: boolean; elapsedMs: number }>((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let settled = false;
    const finish = (closed: boolean) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        resolve({ answer, closed, elapsedMs: performance.now() - started });
      }
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      for (const chunk of chunks) {
        socket.write(chunk);
      }
    });
    socket.on('data', (data) => {
      answer += data;
    });
    socket.on('close', () => finish(true));
    socket.on('error', (error) => (settled ? undefined : reject(error)));
  });
}

describe('HTTP server timeouts (a real listening server)', () => {
  let testApp: TestApp;
  let port: number;

  before(async () => {
    testApp = await buildTestApp({
      HTTP_REQUEST_TIMEOUT_MS: '300',
      HTTP_HEADERS_TIMEOUT_MS: '300',
      HTTP_CONNECTIONS_CHECK_INTERVAL_MS: '100',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000',
      HTTP_CONNECTION_TIMEOUT_MS: '10000',
    });
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    port = (testApp.app.server.address() as AddressInfo).port;
  });
  after(() => testApp.close());

  it('hands the configured timeouts to the Node server', () => {
    const server = testApp.app.server;
    assert.equal(server.requestTimeout, 300);
    assert.equal(server.headersTimeout, 300);
    assert.equal(server.keepAliveTimeout, 5000);
    assert.equal(server.timeout, 10_000);
  });

  it('drops a request whose body stops arriving (408 or close, within a couple of seconds)', async () => {
    const head = [
      'POST /oauth2/token HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      'Content-Length: 100',
      '',
      '',
    ].join('\r\n');
    const { answer, closed, elapsedMs } = await rawExchange(port, [head, '{"grant_type":'], 5000);
    assert.ok(closed, `the server closed the connection (answer: ${JSON.stringify(answer)})`);
    assert.ok(answer.startsWith('HTTP/1.1 408'), answer);
    assert.match(answer, /x-request-id: [0-9a-f-]{36}/i);
    assert.match(answer, /"code":"REQUEST_TIMEOUT"/, 'in the contract envelope');
    assert.ok(elapsedMs >= 250, `not before the deadline (${elapsedMs} ms)`);
    assert.ok(elapsedMs < 2500, `within a couple of seconds (${elapsedMs} ms)`);
  });

  it('drops a client that never finishes its headers (slowloris)', async () => {
    const { answer, closed, elapsedMs } = await rawExchange(
      port,
      ['GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '],
      5000,
    );
    assert.ok(closed, `closed (answer: ${JSON.stringify(answer)})`);
    assert.ok(answer === '' || /"code":"REQUEST_TIMEOUT"/.test(answer), answer);
    assert.ok(elapsedMs < 2500, `within a couple of seconds (${elapsedMs} ms)`);
  });

  it('still answers a request that arrives in time', async () => {
    const { answer } = await rawExchange(
      port,
      ['GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'],
      5000,
    );
    assert.match(answer, /^HTTP\/1\.1 200 /);
  });
});

describe('HTTP server timeouts: defaults', () => {
  it('bounds every request even with no configuration', () => {
    const options = serverTimeoutOptions(loadConfig({}).http);
    assert.equal(options.requestTimeout, 30_000);
    assert.equal(options.keepAliveTimeout, 72_000);
    assert.equal(options.connectionTimeout, 120_000);
    assert.deepEqual(options.http, {
      requestTimeout: 30_000,
      headersTimeout: 10_000,
      keepAliveTimeout: 72_000,
      connectionsCheckingInterval: 1_000,
    });
  });
});
