import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createHttpSender, type WebhookSender } from './http-sender.ts';

/** A receiver on 127.0.0.1 that counts the TCP connections it was opened with. */
async function countingReceiver(handler: http.RequestListener) {
  const server = http.createServer(handler);
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    connections: () => connections,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('the webhook HTTP sender', () => {
  let sender: WebhookSender;
  const receivers: Awaited<ReturnType<typeof countingReceiver>>[] = [];

  before(() => {
    sender = createHttpSender({
      timeoutMs: 300,
      policy: { requireHttps: false, allowLoopback: true, allowPrivate: false },
    });
  });
  after(() => {
    sender.close();
    for (const receiver of receivers) {
      receiver.close();
    }
  });

  it('keeps one connection alive per receiver across deliveries', async () => {
    const ok: http.RequestListener = (request, response) => {
      request.resume();
      request.on('end', () => response.end('ok'));
    };
    const first = await countingReceiver(ok);
    const second = await countingReceiver(ok);
    receivers.push(first, second);
    for (let round = 0; round < 5; round++) {
      for (const receiver of [first, second]) {
        const result = await sender.send(
          receiver.url,
          { 'content-type': 'application/json' },
          '{}',
        );
        assert.equal(result.statusCode, 200);
        assert.equal(result.responseExcerpt, 'ok');
      }
    }
    // Ten deliveries, one after another, over one socket to each receiver: no handshake each.
    assert.equal(first.connections(), 1);
    assert.equal(second.connections(), 1);
  });

  it('gives up at its deadline and keeps only the start of a long answer', async () => {
    const slow = await countingReceiver((request) => {
      request.resume();
    });
    const long = await countingReceiver((request, response) => {
      request.resume();
      request.on('end', () => response.end('x'.repeat(64 * 1024)));
    });
    receivers.push(slow, long);
    const timedOut = await sender.send(slow.url, {}, '{}');
    assert.equal(timedOut.statusCode, undefined);
    assert.match(timedOut.error ?? '', /^ETIMEDOUT: no answer within 300 ms/);
    const answered = await sender.send(long.url, {}, '{}');
    assert.equal(answered.statusCode, 200);
    assert.equal(answered.responseExcerpt?.length, 512);
  });

  it('refuses a destination its policy forbids without connecting', async () => {
    const strict = createHttpSender({
      timeoutMs: 300,
      policy: { requireHttps: false, allowLoopback: false, allowPrivate: false },
    });
    const receiver = await countingReceiver((_request, response) => response.end());
    receivers.push(receiver);
    try {
      const result = await strict.send(receiver.url, {}, '{}');
      assert.equal(result.statusCode, undefined);
      assert.notEqual(result.error, undefined);
      assert.equal(receiver.connections(), 0);
    } finally {
      strict.close();
    }
  });
});
