// payouts.mjs: the team's own code under test. It pays suppliers from the company's account
// over the IBS API and knows nothing of the sandbox: a test hands it the sandbox's URL and a
// fixtures client's credentials, production the bank's.

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A payout the bank refused: nothing moved. */
export class PayoutRefused extends Error {
  constructor(status, answer) {
    super(`payout refused (${status}): ${answer.message ?? 'no message'}`);
    this.status = status;
    this.code = answer.code;
  }
}

/**
 * @param {object} settings
 * @param {string} settings.baseUrl the IBS API
 * @param {string} settings.oauthClientId the app's OAuth client id
 * @param {string} settings.ibsClientId the company's IBS client id
 * @param {() => Promise<string>} settings.clientAssertion signs a client assertion (RFC 7523)
 * @param {string} settings.debitAccountNumber the account payouts are paid from
 */
export function createPayouts(settings) {
  async function post(path, body, headers = {}) {
    const response = await fetch(`${settings.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, answer: await response.json() };
  }

  async function signIn() {
    const { status, answer } = await post('/oauth2/token', {
      grant_type: 'client_credentials',
      client_id: settings.oauthClientId,
      client_assertion_type: JWT_BEARER,
      client_assertion: await settings.clientAssertion(),
    });
    if (answer.access_token === undefined) {
      throw new Error(`sign-in failed (${status}): ${answer.message}`);
    }
    return { authorization: `Bearer ${answer.access_token}`, clientid: settings.ibsClientId };
  }

  return {
    /**
     * Pays once, whatever the network does. The reference is the transfer's paymentReference
     * and its Idempotency-Key: when the answer is lost (a 5xx), the bank is asked for the
     * transfer by reference, and it is sent again (with the same key) only if it never arrived.
     */
    async pay({ accountNumber, bankCode, amount, reference }) {
      const auth = await signIn();
      const enquiry = await post('/transfers/name-enquiry', { bankCode, accountNumber }, auth);
      if (enquiry.status !== 200) {
        throw new PayoutRefused(enquiry.status, enquiry.answer);
      }
      const send = () =>
        post(
          '/transfers',
          {
            nameEnquiryReference: enquiry.answer.data.sessionId,
            debitAccountNumber: settings.debitAccountNumber,
            beneficiaryBankCode: bankCode,
            beneficiaryAccountNumber: accountNumber,
            amount,
            saveBeneficiary: false,
            narration: `Payout ${reference}`,
            paymentReference: reference,
          },
          { ...auth, 'idempotency-key': reference },
        );
      let sent = await send();
      if (sent.status >= 500) {
        const known = await post('/transfers/status', { paymentReference: reference }, auth);
        if (known.status === 200) {
          return known.answer.data;
        }
        sent = await send();
      }
      if (sent.status !== 200) {
        throw new PayoutRefused(sent.status, sent.answer);
      }
      return sent.answer.data;
    },
  };
}
