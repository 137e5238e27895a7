import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useRouteContext } from '../../../../test/shared-route-tests.ts';

/** What a browser loads from OpenIBS for checkout; the browser tests drive it for real. */
describe('the checkout assets', () => {
  const context = useRouteContext();
  const get = (url: string) => context().testApp.app.inject({ method: 'GET', url });

  it('serves the widget at /assets/checkout.min.js and /checkout to pages on any origin', async () => {
    for (const url of ['/assets/checkout.min.js', '/checkout']) {
      const response = await get(url);
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-type']), /^application\/javascript/);
      assert.equal(response.headers['cross-origin-resource-policy'], 'cross-origin');
      assert.match(response.body, /SafeHavenCheckout/);
    }
  });

  it('serves the hosted page with its own script and styles only, framable by any merchant', async () => {
    const response = await get('/checkout/pay/69a55190e554b7811ad0e858');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    const policy = String(response.headers['content-security-policy']);
    assert.match(policy, /script-src 'self'/);
    assert.match(policy, /style-src 'self'/);
    assert.match(policy, /frame-ancestors \*/);
    assert.equal(response.headers['referrer-policy'], 'no-referrer');
    // No inline script or style: the policy would block them.
    assert.doesNotMatch(response.body, /<script>|<style|style="/);
    assert.match(response.body, /src="\/assets\/checkout-page\.js"/);
    for (const [url, type] of [
      ['/assets/checkout-page.js', /^application\/javascript/],
      ['/assets/checkout-page.css', /^text\/css/],
    ] as const) {
      const asset = await get(url);
      assert.equal(asset.statusCode, 200, url);
      assert.match(String(asset.headers['content-type']), type);
    }
  });
});
