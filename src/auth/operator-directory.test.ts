import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, TEST_SECRETS, type TestApp } from '../../test/harness.ts';
import { BREAK_GLASS } from '../../test/operators.ts';
import type { BreakGlassMode } from '../config/operators-config.ts';
import { createOperatorDirectory } from './operator-directory.ts';

describe('the operator directory: credentials to identities, and break-glass', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp?.close());

  const directory = (breakGlass: BreakGlassMode) =>
    createOperatorDirectory({
      db: testApp.db,
      clock: testApp.clock,
      adminToken: TEST_SECRETS.adminToken,
      config: { ...testApp.config.operators, breakGlass },
      sessions: testApp.services.dashboardSessions,
    });

  it('bootstrap: the admin token works until an admin can get in, and again when none can', async () => {
    const bootstrap = directory('bootstrap');
    const glass = () => bootstrap.authenticate(TEST_SECRETS.adminToken, 'first-day');
    assert.equal((await glass())?.actor, 'break-glass:first-day');
    const admin = await bootstrap.create(
      { email: 'first.admin@bank.test', displayName: 'First', roles: ['admin'] },
      BREAK_GLASS,
    );
    // Created, not set up: break-glass must still hand over their first key.
    assert.equal((await glass())?.kind, 'break-glass');
    const { key, token } = await bootstrap.issueApiKey(admin.id, { name: 'bootstrap' });
    assert.equal(await glass(), undefined);
    assert.equal((await bootstrap.authenticate(token))?.actor, 'operator:first.admin@bank.test');
    await bootstrap.revokeApiKey(admin.id, key.id);
    assert.equal((await glass())?.kind, 'break-glass');
  });

  it('on: always (the sandbox); off: never', async () => {
    assert.equal(
      (await directory('on').authenticate(TEST_SECRETS.adminToken))?.actor,
      'break-glass',
    );
    assert.equal(await directory('off').authenticate(TEST_SECRETS.adminToken), undefined);
  });

  it('a wrong token, a made-up key or session credential opens nothing', async () => {
    const on = directory('on');
    assert.equal(await on.authenticate('wrong'), undefined);
    assert.equal(await on.authenticate('oibs_opk_madeup'), undefined);
    assert.equal(await on.authenticate('oibs_ses_madeup'), undefined);
  });

  it("a dashboard session is its operator's credential, with their roles; a break-glass session follows break-glass", async () => {
    const operator = await testApp.services.operators.create(
      { email: 'ses@bank.test', displayName: 'Ses', roles: ['support'] },
      BREAK_GLASS,
    );
    const sessions = testApp.services.dashboardSessions;
    const own = await sessions.open(operator.email, operator.id);
    const identity = await directory('off').authenticate(`oibs_ses_${own.secret}`);
    assert.equal(identity?.operatorId, operator.id);
    assert.deepEqual(identity?.roles, ['support']);
    assert.match(identity?.sessionId ?? '', /^session:[0-9a-f]{16}$/);
    const glassSession = await sessions.open('night-shift', null);
    assert.equal(
      (await directory('on').authenticate(`oibs_ses_${glassSession.secret}`))?.actor,
      'break-glass:night-shift',
    );
    assert.equal(await directory('off').authenticate(`oibs_ses_${glassSession.secret}`), undefined);
  });

  it('a session unused for longer than the idle timeout ends', async () => {
    const idle = await buildTestApp({ OPERATOR_SESSION_IDLE_SECONDS: '600' });
    try {
      const opened = await idle.services.dashboardSessions.open('idle', null);
      idle.clock.advance(599_000);
      assert.notEqual(await idle.services.dashboardSessions.find(opened.secret), undefined);
      idle.clock.advance(599_000);
      // Seen 599 s ago at most 30 s earlier than that: still live; then quiet past the limit.
      assert.notEqual(await idle.services.dashboardSessions.find(opened.secret), undefined);
      idle.clock.advance(601_000);
      assert.equal(await idle.services.dashboardSessions.find(opened.secret), undefined);
    } finally {
      await idle.close();
    }
  });
});
