import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InjectOptions } from 'light-my-request';
import { adminContract } from '../src/admin/contract/index.ts';
import { adminHeaders } from './factories.ts';
import { type RouteContext, useRouteContext } from './shared-route-tests.ts';

/**
 * The test beside an admin area's registrar (`src/admin/routes/*-area.ts`): the app serves every
 * route the area registers, each is in the admin contract, and one call through the area
 * reaches its services (the registrar passed them on).
 */
export function describeAdminArea(
  area: string,
  routes: readonly (keyof typeof adminContract)[],
  /** May make what the call needs first (an operator to act on, say). */
  call: (context: RouteContext) => InjectOptions | Promise<InjectOptions>,
): void {
  describe(`admin area: ${area}`, () => {
    const context = useRouteContext();

    it('serves every route it registers, each named by the admin contract', () => {
      const { app } = context().testApp;
      for (const route of routes) {
        assert.ok(route in adminContract, `${route} is in the admin contract`);
        const [method = '', url = ''] = route.split(' ');
        assert.ok(app.hasRoute({ method: method as 'GET', url }), `${route} is served`);
      }
    });

    it('answers a call with the admin token through its services', async () => {
      const options = await call(context());
      const response = await context().testApp.app.inject({
        ...options,
        headers: { ...adminHeaders, ...(options.headers ?? {}) },
      });
      assert.equal(response.statusCode < 300, true, response.body);
    });
  });
}
