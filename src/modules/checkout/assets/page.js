/*
 * The hosted checkout page. The widget frames it at /checkout/pay/<session id>#<token>: the id
 * comes from the path, the token from the fragment (which browsers never send to a server), and
 * the token goes back in a header on every call, since it alone opens this one session.
 *
 * The page shows what to pay and how, polls the session until it is paid or expired, and tells
 * the merchant's page (the widget) the outcome by postMessage, addressed to the merchant's origin
 * as the server recorded it, so no other window can read a payment result.
 */
(() => {
  const SOURCE = 'openibs-checkout';
  const POLL_MS = 2000;
  // How long the success panel shows before the widget is told (and removes this frame).
  const COMPLETED_PAUSE_MS = 1500;
  // Clock differences smaller than this are the Date header's rounding, not a wrong clock.
  const SKEW_TOLERANCE_MS = 5000;

  const sessionId = decodeURIComponent(location.pathname.split('/').pop() || '');
  const token = location.hash.slice(1);
  const framed = window.parent !== window;
  if (framed) {
    document.documentElement.classList.add('framed');
  }

  const byId = (id) => document.getElementById(id);
  const show = (element, visible) => {
    element.hidden = !visible;
  };
  // Opened on its own there is no widget to tell: closing the tab is the browser's business.
  show(byId('close'), framed);

  let view = null;
  let method = null;
  let pollTimer = 0;
  let pollFailures = 0;
  let skewMs = 0;
  let finished = false;
  let told = false;
  let transferRequest = null;
  const countdowns = {};

  const money = (amount) => {
    try {
      return new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' }).format(amount);
    } catch (_error) {
      return `NGN ${Number(amount).toFixed(2)}`;
    }
  };

  const announce = (text) => {
    byId('status').textContent = text;
  };

  const showError = (text) => {
    byId('alert').textContent = text;
  };

  // --- The API ---------------------------------------------------------------------------

  async function call(httpMethod, path, body) {
    const headers = { 'x-checkout-token': token, accept: 'application/json' };
    const init = { method: httpMethod, headers, cache: 'no-store' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(`/checkout/sessions/${encodeURIComponent(sessionId)}${path}`, init);
    } catch (_error) {
      throw new Error('We could not reach the bank. Check your connection and try again.');
    }
    // Countdowns run on this device's clock; the server's Date header corrects a wrong one.
    const serverNow = Date.parse(response.headers.get('date') || '');
    if (!Number.isNaN(serverNow)) {
      const skew = serverNow - Date.now();
      skewMs = Math.abs(skew) > SKEW_TOLERANCE_MS ? skew : 0;
    }
    let payload = null;
    try {
      payload = await response.json();
    } catch (_error) {
      payload = null;
    }
    if (!response.ok || payload === null || typeof payload !== 'object') {
      const message =
        payload !== null && typeof payload === 'object' && typeof payload.message === 'string'
          ? payload.message
          : `Something went wrong (HTTP ${response.status}). Please try again.`;
      throw new Error(message);
    }
    return payload.data;
  }

  // --- Talking to the widget -------------------------------------------------------------

  function tell(message) {
    if (!framed) {
      return;
    }
    if (view !== null && typeof view.merchantOrigin === 'string') {
      window.parent.postMessage({ source: SOURCE, ...message }, view.merchantOrigin);
    } else if (message.type === 'closed') {
      // No recorded origin (a file:// or sandboxed merchant page): "closed" carries nothing
      // private, so it may go to whoever framed us; a payment result never does.
      window.parent.postMessage({ source: SOURCE, type: 'closed' }, '*');
    }
  }

  function tellCompleted() {
    if (told || view === null || view.result === null) {
      return;
    }
    told = true;
    tell({ type: 'completed', response: view.result });
  }

  function close() {
    if (view !== null && view.status === 'Completed') {
      // Paid: closing must still hand the merchant its result.
      tellCompleted();
    } else {
      tell({ type: 'closed' });
    }
  }

  // --- Rendering -------------------------------------------------------------------------

  function render(next) {
    const first = view === null;
    view = next;
    if (first) {
      renderHeader();
    }
    renderTotals();
    if (view.status === 'Completed') {
      complete();
    } else if (view.status === 'Expired') {
      expire();
    }
  }

  function renderHeader() {
    document.title = `Pay ${view.merchantName} | Secure checkout`;
    byId('merchant-name').textContent = view.merchantName;
    byId('customer-name').textContent = `Paying as ${view.customerName}`;
    const initials = byId('merchant-initials');
    initials.textContent = view.merchantName
      .split(/\s+/)
      .filter((word) => word.length > 0)
      .slice(0, 2)
      .map((word) => word[0].toUpperCase())
      .join('');
    if (typeof view.customIconUrl === 'string') {
      const icon = byId('merchant-icon');
      icon.alt = view.merchantName;
      icon.addEventListener('load', () => {
        show(icon, true);
        show(initials, false);
      });
      // A logo that does not load (or is not https) leaves the initials in its place.
      icon.addEventListener('error', () => show(icon, false));
      icon.src = view.customIconUrl;
    }
    show(byId('sandbox-banner'), view.environment === 'sandbox');
    for (const button of document.querySelectorAll('[data-simulate]')) {
      show(button, view.environment === 'sandbox' && button.dataset.simulate === 'BANK_TRANSFER');
    }
    const select = byId('ussd-bank');
    for (const bank of view.banks) {
      const option = document.createElement('option');
      option.value = bank.ussdBankCode;
      option.textContent = bank.bankName;
      select.append(option);
    }
    show(byId('loading'), false);
    show(byId('summary'), true);
    show(byId('pay'), view.status === 'Pending');
  }

  /** The amount, and for a customer who bears the fee, the fee and total of the chosen method. */
  function renderTotals() {
    const terms = view.methods[method || 'BANK_TRANSFER'];
    const customerPays = view.feeBearer === 'customer' && terms.customerFee > 0;
    byId('amount').textContent = money(view.amount);
    byId('fee').textContent = money(terms.customerFee);
    byId('total').textContent = money(customerPays ? terms.amountToPay : view.amount);
    show(byId('fee-row'), customerPays);
  }

  function complete() {
    if (finished) {
      return;
    }
    finished = true;
    stopPolling();
    stopCountdowns();
    show(byId('pay'), false);
    showError('');
    const result = view.result;
    byId('done-text').textContent = `${money(result.amountPaid)} paid to ${view.merchantName}.`;
    byId('done-reference').textContent = `Reference ${result.referenceCode}`;
    const canTell = framed && typeof view.merchantOrigin === 'string';
    show(byId('done-button'), canTell);
    if (!canTell && typeof view.redirectUrl === 'string') {
      const row = byId('done-link-row');
      row.replaceChildren(link(withResult(view.redirectUrl, result), 'Continue', 'primary-button'));
      show(row, true);
    } else if (!canTell) {
      show(byId('done-standalone'), true);
    }
    show(byId('done'), true);
    // The panel says it on screen; the status region says it to screen readers.
    byId('status').classList.add('quiet');
    announce('Payment received.');
    byId('done-heading').focus();
    if (canTell) {
      setTimeout(tellCompleted, COMPLETED_PAUSE_MS);
    }
  }

  function expire() {
    if (finished) {
      return;
    }
    finished = true;
    stopPolling();
    stopCountdowns();
    show(byId('pay'), false);
    show(byId('expired'), true);
    byId('status').classList.add('quiet');
    announce('This payment has expired.');
    byId('expired-heading').focus();
  }

  // Links are made once their address is known, so none ever points nowhere.
  function link(href, text, className) {
    const anchor = document.createElement('a');
    anchor.href = href;
    anchor.textContent = text;
    anchor.className = className;
    return anchor;
  }

  function withResult(url, result) {
    const joiner = url.includes('?') ? '&' : '?';
    return `${url}${joiner}reference=${encodeURIComponent(result.referenceCode)}&status=${encodeURIComponent(result.status)}`;
  }

  // --- Payment methods -------------------------------------------------------------------

  const tabs = () => Array.from(document.querySelectorAll('[role="tab"]'));

  function selectMethod(chosen) {
    method = chosen;
    for (const tab of tabs()) {
      const selected = tab.dataset.method === chosen;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      show(byId(tab.getAttribute('aria-controls')), selected);
    }
    renderTotals();
    if (chosen === 'BANK_TRANSFER' && byId('transfer-details').hidden) {
      openBankTransfer();
    }
  }

  async function openBankTransfer() {
    if (transferRequest !== null) {
      return transferRequest;
    }
    show(byId('transfer-loading'), true);
    show(byId('transfer-expired'), false);
    showError('');
    transferRequest = call('POST', '/bank-transfer')
      .then((account) => {
        byId('transfer-amount').textContent = money(account.amount);
        byId('transfer-exact').textContent = money(account.amount);
        byId('transfer-account').textContent = account.accountNumber;
        byId('transfer-bank').textContent = account.bankName;
        byId('transfer-name').textContent = account.accountName;
        show(byId('transfer-details'), true);
        announce('Waiting for your transfer.');
        startCountdown('transfer', account.expiresAt, () => {
          show(byId('transfer-details'), false);
          show(byId('transfer-expired'), true);
          announce('The account number has expired.');
        });
      })
      .catch((error) => showError(error.message))
      .finally(() => {
        transferRequest = null;
        show(byId('transfer-loading'), false);
      });
    return transferRequest;
  }

  async function openUssd(ussdBankCode) {
    const select = byId('ussd-bank');
    show(byId('ussd-details'), false);
    simulateButton('USSD').hidden = true;
    stopCountdown('ussd');
    if (ussdBankCode === '') {
      return;
    }
    show(byId('ussd-loading'), true);
    select.disabled = true;
    showError('');
    try {
      const ussd = await call('POST', '/ussd', { ussdBankCode });
      byId('ussd-bank-name').textContent = ussd.bankName || 'bank';
      byId('ussd-amount').textContent = money(ussd.amount);
      const code = ussd.ussdString || ussd.reference;
      byId('ussd-string').textContent = code;
      byId('ussd-dial-row').replaceChildren(
        link(`tel:${encodeURIComponent(code)}`, 'Dial now', 'dial-link'),
      );
      show(byId('ussd-details'), true);
      show(simulateButton('USSD'), view.environment === 'sandbox');
      announce(`Dial ${code} to pay.`);
      startCountdown('ussd', ussd.expiresAt, () => {
        show(byId('ussd-details'), false);
        show(simulateButton('USSD'), false);
        select.value = '';
        announce('The USSD code has expired. Choose your bank again for a new one.');
      });
    } catch (error) {
      showError(error.message);
    } finally {
      select.disabled = false;
      show(byId('ussd-loading'), false);
    }
  }

  const simulateButton = (channel) => document.querySelector(`[data-simulate="${channel}"]`);

  async function simulate(button) {
    button.disabled = true;
    showError('');
    announce('Sandbox: making the payment.');
    try {
      render(await call('POST', '/simulate', { method: button.dataset.simulate }));
    } catch (error) {
      showError(error.message);
    } finally {
      button.disabled = false;
    }
  }

  async function copy(text, what) {
    let copied = false;
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch (_error) {
      // Frames without clipboard permission: the older copy command still works there.
      const area = document.createElement('textarea');
      area.value = text;
      area.readOnly = true;
      area.className = 'visually-hidden';
      document.body.append(area);
      area.select();
      try {
        copied = document.execCommand('copy');
      } catch (_copyError) {
        copied = false;
      }
      area.remove();
    }
    announce(
      copied ? `${what} copied.` : `Could not copy. Select the ${what.toLowerCase()} instead.`,
    );
  }

  // --- Countdowns --------------------------------------------------------------------------

  function startCountdown(name, expiresAt, onEnd) {
    stopCountdown(name);
    const element = byId(`${name}-countdown`);
    const end = Date.parse(expiresAt);
    const tick = () => {
      const left = Math.max(0, end - (Date.now() + skewMs));
      element.textContent = duration(left);
      if (left === 0) {
        stopCountdown(name);
        onEnd();
      }
    };
    tick();
    if (!Number.isNaN(end) && end > Date.now() + skewMs) {
      countdowns[name] = setInterval(tick, 1000);
    }
  }

  function stopCountdown(name) {
    clearInterval(countdowns[name]);
    delete countdowns[name];
  }

  function stopCountdowns() {
    for (const name of Object.keys(countdowns)) {
      stopCountdown(name);
    }
  }

  function duration(ms) {
    const total = Math.ceil(ms / 1000);
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = String(total % 60).padStart(2, '0');
    return hours > 0
      ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
      : `${minutes}:${seconds}`;
  }

  // --- Polling -----------------------------------------------------------------------------

  function schedulePoll() {
    clearTimeout(pollTimer);
    // A hidden page stops asking; it asks again once it is shown.
    if (finished || document.hidden || view === null) {
      return;
    }
    pollTimer = setTimeout(poll, POLL_MS);
  }

  function stopPolling() {
    clearTimeout(pollTimer);
  }

  async function poll() {
    try {
      render(await call('GET', ''));
      pollFailures = 0;
    } catch (error) {
      // One failed poll is noise on a phone network; say so only when it keeps failing.
      pollFailures += 1;
      if (pollFailures >= 3) {
        showError(error.message);
      }
    }
    schedulePoll();
  }

  // --- Wiring ------------------------------------------------------------------------------

  byId('close').addEventListener('click', close);
  byId('done-button').addEventListener('click', tellCompleted);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      close();
    }
  });
  document.addEventListener('visibilitychange', schedulePoll);

  const tablist = document.querySelector('[role="tablist"]');
  tablist.addEventListener('click', (event) => {
    const tab = event.target.closest('[role="tab"]');
    if (tab !== null) {
      selectMethod(tab.dataset.method);
    }
  });
  // Arrow keys move between the tabs; Enter or Space chooses one (each choice calls the API).
  tablist.addEventListener('keydown', (event) => {
    const all = tabs();
    const at = all.indexOf(document.activeElement);
    const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1 };
    if (at === -1 || !(event.key in moves)) {
      return;
    }
    event.preventDefault();
    const next = all[(moves[event.key] + all.length) % all.length];
    for (const tab of all) {
      tab.tabIndex = tab === next ? 0 : -1;
    }
    next.focus();
  });
  byId('transfer-renew').addEventListener('click', openBankTransfer);
  byId('ussd-bank').addEventListener('change', (event) => openUssd(event.target.value));
  byId('copy-account').addEventListener('click', () =>
    copy(byId('transfer-account').textContent, 'Account number'),
  );
  byId('copy-ussd').addEventListener('click', () =>
    copy(byId('ussd-string').textContent, 'USSD code'),
  );
  for (const button of document.querySelectorAll('[data-simulate]')) {
    button.addEventListener('click', () => simulate(button));
  }

  async function start() {
    if (sessionId === '' || token === '') {
      show(byId('loading'), false);
      showError('This payment link is incomplete. Start the payment again from the shop.');
      return;
    }
    try {
      render(await call('GET', ''));
    } catch (error) {
      show(byId('loading'), false);
      showError(error.message);
      return;
    }
    schedulePoll();
  }

  start();
})();
