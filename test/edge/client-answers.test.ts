import assert from 'node:assert/strict';
import { type AddressInfo, connect } from 'node:net';
import { before, describe, it } from 'node:test';
import { type RawClient, type RawResponse, type RawSend, useRawClient } from '../raw-http.ts';

// What clients of the published API read, and how the edge answers what it cannot take.
const INSTITUTION = '999240';
const OTHER_BANK = '000013';

describe('edge contract: what clients read', () => {
  const client = useRawClient();
  let send: RawSend;
  let headers: Record<string, string>;
  let main: { _id: string; accountNumber: string };

  const call: RawClient['call'] = (...args) => client().call(...args);

  async function transfer(bankCode: string, accountNumber: string, amount: number) {
    const enquiry = await call('POST', '/transfers/name-enquiry', { bankCode, accountNumber });
    assert.equal(enquiry.status, 200, enquiry.text);
    return call('POST', '/transfers', {
      nameEnquiryReference: enquiry.body.data.sessionId,
      debitAccountNumber: main.accountNumber,
      beneficiaryBankCode: bankCode,
      beneficiaryAccountNumber: accountNumber,
      amount,
    });
  }

  before(() => {
    ({ send, headers, main } = client());
  });

  describe('6. creates answer statusCode 200', () => {
    it('accounts and sub-accounts: HTTP 200 and body statusCode 200', async () => {
      const account = await call('POST', '/accounts', { suffix: 'Wallet' });
      assert.equal(account.status, 200, account.text);
      assert.equal(account.body.statusCode, 200);
      const check = await call('POST', '/identity/v2', {
        type: 'BVN',
        number: '22212345671',
        debitAccountNumber: main.accountNumber,
      });
      await call('POST', '/identity/v2/validate', {
        identityId: check.body.data._id,
        type: 'BVN',
        otp: '123456',
      });
      const sub = await call('POST', '/accounts/v2/subaccount', {
        phoneNumber: '+2348112345678',
        emailAddress: 'jane@example.com',
        externalReference: 'ANSWERS-1',
        identityType: 'vID',
        identityId: check.body.data._id,
      });
      assert.equal(sub.status, 200, sub.text);
      assert.equal(sub.body.statusCode, 200);
    });
  });

  describe('7. top-level responseCode and responseMessage', () => {
    it('a completed transfer, its status and a name enquiry carry "00" at the top level', async () => {
      const payee = (await call('POST', '/accounts', { suffix: 'Payee' })).body.data;
      const enquiry = await call('POST', '/transfers/name-enquiry', {
        bankCode: INSTITUTION,
        accountNumber: payee.accountNumber,
      });
      assert.equal(enquiry.body.responseCode, '00');
      assert.equal(enquiry.body.responseMessage, enquiry.body.data.responseMessage);
      const sent = await transfer(INSTITUTION, payee.accountNumber, 12);
      assert.equal(sent.body.responseCode, '00', sent.text);
      assert.equal(sent.body.data.responseCode, '00');
      for (const path of ['/transfers/status', '/transfers/tqs']) {
        const status = await call('POST', path, { sessionId: sent.body.data.sessionId });
        assert.equal(status.body.responseCode, '00', status.text);
        assert.equal(typeof status.body.responseMessage, 'string');
      }
    });

    it('a declined NIP transfer is HTTP 200 with a top-level code that is not "00"', async () => {
      // Sandbox NIP: an amount ending .05 is declined with 05 Do not honor (docs/sandbox-nip.md).
      const declined = await transfer(OTHER_BANK, '0123456789', 100.05);
      assert.equal(declined.status, 200, declined.text);
      assert.equal(declined.body.data.status, 'Failed');
      assert.equal(declined.body.responseCode, '05');
      assert.equal(declined.body.responseMessage, declined.body.data.responseMessage);
      const status = await call('POST', '/transfers/status', {
        paymentReference: declined.body.data.paymentReference,
      });
      assert.equal(status.body.responseCode, '05');
    });
  });

  describe('8. identity initiation answers SUCCESS', () => {
    it('BVN: status SUCCESS with verificationStatus Pending; validation answers Verified', async () => {
      const started = await call('POST', '/identity/v2', {
        type: 'BVN',
        number: '22212345682',
        debitAccountNumber: main.accountNumber,
      });
      assert.equal(started.status, 200, started.text);
      assert.equal(started.body.data.status, 'SUCCESS');
      assert.equal(started.body.data.verificationStatus, 'Pending');
      assert.equal(started.body.data.isVerified, false);
      const validated = await call('POST', '/identity/v2/validate', {
        identityId: started.body.data._id,
        type: 'BVN',
        otp: '123456',
      });
      assert.equal(validated.body.data.status, 'Verified');
    });

    it('a bureau that does not find the number answers an error, not SUCCESS', async () => {
      const missing = await call('POST', '/identity/v2', {
        type: 'BVN',
        number: '22212340000',
        debitAccountNumber: main.accountNumber,
      });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.code, 'IDENTITY_NOT_FOUND');
    });
  });

  describe('13. framework errors in the contract envelope', () => {
    function assertEnvelope(response: RawResponse, status: number, code: string) {
      assert.equal(response.status, status, response.text);
      assert.equal(response.body.statusCode, status);
      assert.equal(response.body.code, code);
      assert.equal(response.body.message, response.body.error_description);
      assert.equal(typeof response.body.error, 'string');
      // The usual headers, whichever layer refused the request.
      assert.equal(typeof response.headers['x-request-id'], 'string', 'x-request-id');
      assert.match(String(response.headers['x-request-id']), /^[A-Za-z0-9._-]+$/);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.equal(response.headers['cache-control'], 'no-store');
    }

    it('an over-long path parameter is an unknown record', async () => {
      const response = await call('GET', `/accounts/${'a'.repeat(300)}`);
      assertEnvelope(response, 400, 'RECORD_NOT_FOUND');
      assert.ok(!response.text.includes('aaaa'));
    });

    it('a bad percent-encoding is INVALID_URL and the URL is not echoed', async () => {
      const response = await call('GET', '/accounts/%E0%A4%A?secret=hunter2');
      assertEnvelope(response, 400, 'INVALID_URL');
      assert.ok(!response.text.includes('hunter2'));
      assert.ok(!response.text.includes('%E0'));
    });

    it('a malformed escape (%zz), a 101-character id or bytes that are not UTF-8 in the path', async () => {
      assertEnvelope(await call('GET', '/accounts/%zz'), 400, 'INVALID_URL');
      assertEnvelope(await call('GET', '/accounts/%ED%A0%80'), 400, 'INVALID_URL');
      assertEnvelope(await call('GET', `/accounts/${'a'.repeat(101)}`), 400, 'RECORD_NOT_FOUND');
      assertEnvelope(await send('POST', '/admin/accounts/%zz/freeze'), 400, 'INVALID_URL');
    });

    it('a request the HTTP parser refuses is answered in the envelope, with the usual headers', async () => {
      const { port } = client().testApp.app.server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write('GET /accounts HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n'),
        );
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      assert.match(answer, /^HTTP\/1\.1 400 /);
      assert.match(answer, /\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
      assert.match(answer, /\r\nx-content-type-options: nosniff\r\n/i);
      assert.match(answer, /\r\ncache-control: no-store\r\n/i);
      assert.match(answer, /"code":"VALIDATION_ERROR"/);
    });

    it('an unknown route is 404 without the query string', async () => {
      const response = await call('GET', '/no-such-route?token=hunter2');
      assertEnvelope(response, 404, 'ROUTE_NOT_FOUND');
      assert.ok(!response.text.includes('hunter2'));
    });

    it('bad JSON, a wrong content type and a body too large', async () => {
      assertEnvelope(await call('POST', '/accounts', '{"suffix":'), 400, 'INVALID_JSON');
      const xml = await send('POST', '/accounts', {
        headers: { ...headers, 'content-type': 'application/xml' },
        body: '<suffix/>',
      });
      assertEnvelope(xml, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const huge = await call('POST', '/accounts', { suffix: 'x'.repeat(300 * 1024) });
      assertEnvelope(huge, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('the request id a client sends comes back', async () => {
      const response = await send('GET', '/no-such-route', {
        headers: { ...headers, 'x-request-id': 'client-req-42' },
      });
      assert.equal(response.headers['x-request-id'], 'client-req-42');
    });
  });

  describe('14. no caching and no sniffing', () => {
    it('balances, personal data and errors carry Cache-Control: no-store and nosniff', async () => {
      const answers = [
        await call('GET', `/accounts/${main._id}`),
        await call('GET', '/accounts'),
        await call('GET', `/accounts/${main._id}/statement`),
        await call('POST', '/identity/v2', {
          type: 'CAC',
          number: 'RC1',
          debitAccountNumber: main.accountNumber,
        }),
        await call('GET', '/accounts/unknown'),
      ];
      for (const response of answers) {
        assert.equal(response.headers['cache-control'], 'no-store', response.text.slice(0, 80));
        assert.equal(response.headers['x-content-type-options'], 'nosniff');
      }
    });
  });
});
