import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signatureHeader } from './signer.ts';

describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({ type: 'transfer', data: { amount: 100 } });
  const timestamp = Math.floor(Date.now() / 1000);

  it('signs so that the reference implementation verifies', () => {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = {
      'webhook-id': 'msg_abc',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader('msg_abc', timestamp, body, [secret]),
    };
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
  });

  it('signs with both secrets during a rotation; either verifies, a stranger does not', () => {
    const [current, previous, stranger] = [
      newWebhookSecret(),
      newWebhookSecret(),
      newWebhookSecret(),
    ];
    const signature = signatureHeader('msg_abc', timestamp, body, [current, previous]);
    assert.equal(signature.split(' ').length, 2);
    const headers = {
      'webhook-id': 'msg_abc',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };
    new Webhook(current).verify(body, headers);
    new Webhook(previous).verify(body, headers);
    assert.throws(() => new Webhook(stranger).verify(body, headers));
    assert.throws(() => new Webhook(current).verify(`${body} `, headers));
  });
});
