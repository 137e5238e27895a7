/**
 * "Release" on an active lien: written off through the admin API as the signed-in operator, with
 * the reason the form requires, back to the page the form was on; another client's lien, or none
 * given a reason, stays as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { balancesOf, lienFromRecall } from '../../../test/liens.ts';

describe('dashboard: release a lien', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let clientBase: string;

  const lienRow = async (lienId: string) =>
    (
      await testApp.db.query<{ status: string; released_by: string | null }>(
        'SELECT status, released_by FROM ledger_liens WHERE id = $1',
        [lienId],
      )
    )[0];

  /** A credit of ₦500, ₦400 of it spent, recalled: a lien of ₦400 on the main account. */
  async function lienOnMainAccount(): Promise<{ lienId: string; creditId: string }> {
    const { mainAccountNumber } = signedIn.client;
    const { credit, lien } = await lienFromRecall(
      testApp.app,
      signedIn.headers,
      mainAccountNumber,
      389.25,
    );
    return { lienId: lien._id, creditId: credit._id };
  }

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Release Foods');
    clientBase = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('releases it from the account page as the operator: written off, the account free', async () => {
    const { lienId } = await lienOnMainAccount();
    const accountPage = `${clientBase}/accounts/${signedIn.client.mainAccountNumber}`;
    await browser.get(accountPage);
    const released = await browser.post(`${accountPage}/liens/${lienId}/release`, {
      reason: 'Goodwill',
      back: accountPage,
    });
    assert.equal(released.statusCode, 303);
    assert.equal(released.headers.location, accountPage);
    const page = await browser.get(accountPage);
    assert.match(page.body, /Lien released: ₦400\.00 written off/);
    assert.deepEqual(await lienRow(lienId), { status: 'released', released_by: 'break-glass:olu' });
    const balances = await balancesOf(testApp, signedIn.headers, signedIn.client.mainAccountId);
    assert.equal(balances.locked, 0);
    const audit = await testApp.services.auditLog.list({
      actor: 'break-glass:olu',
      offset: 0,
      limit: 50,
    });
    assert.ok(
      audit.events.some(
        (event) =>
          event.action === 'admin.post /admin/liens/:id/release' && event.target === lienId,
      ),
      'the audit trail names the operator and the lien',
    );
  });

  it('comes back to the credit’s story page it was released from, never to another site', async () => {
    const { lienId, creditId } = await lienOnMainAccount();
    const story = `${clientBase}/transfers/${creditId}`;
    const storyPage = await browser.get(story);
    assert.match(storyPage.body, /The lien it left/);
    assert.match(storyPage.body, new RegExp(`/liens/${lienId}/release`));
    const action = `${clientBase}/accounts/${signedIn.client.mainAccountNumber}/liens/${lienId}/release`;
    const hostile = await browser.post(action, { reason: '', back: 'https://evil.example/x' });
    assert.equal(
      hostile.headers.location,
      `${clientBase}/accounts/${signedIn.client.mainAccountNumber}`,
    );
    const released = await browser.post(action, { reason: 'Bank error', back: story });
    assert.equal(released.headers.location, story);
    assert.equal((await lienRow(lienId))?.status, 'released');
  });

  it('refuses without a reason, and another client’s lien: nothing is released', async () => {
    const { lienId } = await lienOnMainAccount();
    const other = await signedInClient(testApp, 'Other Foods', 1);
    const otherBase = `/dashboard/clients/${other.client.ibsClientId}`;
    await browser.get(clientBase);
    const withoutReason = await browser.post(
      `${clientBase}/accounts/${signedIn.client.mainAccountNumber}/liens/${lienId}/release`,
      { reason: '   ' },
    );
    assert.match(
      (await browser.get(String(withoutReason.headers.location))).body,
      /Say why the lien is released\./,
    );
    const foreign = await browser.post(
      `${otherBase}/accounts/${signedIn.client.mainAccountNumber}/liens/${lienId}/release`,
      { reason: 'Sneaky' },
    );
    assert.match(
      (await browser.get(String(foreign.headers.location))).body,
      /That account is not one of this client\./,
    );
    const wrongAccount = await browser.post(
      `${otherBase}/accounts/${other.client.mainAccountNumber}/liens/${lienId}/release`,
      { reason: 'Sneaky' },
    );
    assert.match(
      (await browser.get(String(wrongAccount.headers.location))).body,
      /That lien is not on this account\./,
    );
    assert.equal((await lienRow(lienId))?.status, 'active');
  });
});
