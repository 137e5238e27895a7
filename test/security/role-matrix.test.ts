/**
 * The role matrix (docs/operators.md): every admin route of the contract, called by an operator
 * holding each role alone and by one holding none. A role the route's entry allows passes the
 * check; every other gets 403 ROLE_REQUIRED; an operator without a role passes nowhere. Writes
 * are sent with a body type no route parses, so an allowed call stops at 415 after the check
 * and changes nothing (the sandbox's reset among them).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminContract } from '../../src/admin/contract/index.ts';
import { OPERATOR_ROLES, type OperatorRole, rolesAllow } from '../../src/auth/operator-roles.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import { operatorWithRoles } from '../operators.ts';

const SAMPLE_PARAMS: Record<string, string> = {
  accountNumber: '0000000000',
};

function urlOf(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => SAMPLE_PARAMS[name] ?? 'x1');
}

describe('security: the role matrix over every admin route', () => {
  let testApp: TestApp;
  const holders = new Map<OperatorRole | 'none', Record<string, string>>();
  before(async () => {
    testApp = await buildTestApp();
    for (const role of OPERATOR_ROLES) {
      holders.set(role, (await operatorWithRoles(testApp, [role])).headers);
    }
    holders.set('none', (await operatorWithRoles(testApp, [])).headers);
  });
  after(() => testApp?.close());

  const routes = Object.entries(adminContract).map(([key, entry]) => {
    const [method = '', path = ''] = key.split(' ');
    return { key, method, path, role: entry.role };
  });

  it('every route of the contract names a role', () => {
    assert.ok(routes.length > 60);
    for (const route of routes) {
      assert.ok(OPERATOR_ROLES.includes(route.role), `${route.key} has no role`);
    }
  });

  for (const route of routes) {
    it(`${route.key} (${route.role})`, async () => {
      for (const [holder, headers] of holders) {
        const write = route.method !== 'GET';
        const answer = await testApp.app.inject({
          method: route.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
          url: urlOf(route.path),
          headers: write ? { ...headers, 'content-type': 'application/x-role-matrix' } : headers,
          ...(write ? { payload: 'x' } : {}),
        });
        const allowed = holder !== 'none' && rolesAllow([holder], route.role);
        const refusedForRole = answer.statusCode === 403 && answer.json().code === 'ROLE_REQUIRED';
        assert.equal(
          refusedForRole,
          !allowed,
          `${holder} on ${route.key}: ${answer.statusCode} ${answer.body.slice(0, 200)}`,
        );
        assert.ok(answer.statusCode < 500, `${holder} on ${route.key}: ${answer.body}`);
        if (allowed && write) {
          assert.equal(answer.statusCode, 415, `${holder} on ${route.key}: ${answer.body}`);
        }
      }
    });
  }
});
