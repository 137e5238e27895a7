/*
 * OpenIBS Checkout widget: window.SafeHavenCheckout(config), the published Checkout.js call.
 *
 * It opens a checkout session on the OpenIBS that served this file, then shows that server's
 * hosted payment page in a full-screen frame. The page, not this script, handles the payment;
 * it tells this script by postMessage when the customer has paid or closed it. Plain ES2017 with
 * no dependencies, because it runs on merchant pages we know nothing about.
 */
(() => {
  const SOURCE = 'openibs-checkout';
  const SCRIPT_PATH = /\/(?:assets\/checkout\.min\.js|checkout)$/;

  // The server that served this script is the one to talk to. document.currentScript is only
  // set while the script first runs, so it is read now rather than when the merchant calls us.
  const ownSource = () => {
    const current = document.currentScript;
    const src = current === null ? '' : current.src;
    // Loaded in a way that leaves currentScript unset: the last tag that looks like this file.
    const tags = Array.from(document.querySelectorAll('script[src]')).filter((tag) =>
      SCRIPT_PATH.test(new URL(tag.src, location.href).pathname),
    );
    return src || (tags.length > 0 ? tags[tags.length - 1].src : '');
  };
  const source = ownSource();
  const scriptUrl = source === '' ? null : new URL(source, location.href);
  const apiOrigin = scriptUrl === null ? '' : scriptUrl.origin;
  const apiBase = scriptUrl === null ? '' : apiOrigin + scriptUrl.pathname.replace(SCRIPT_PATH, '');

  const fail = (problem) => console.error(`SafeHavenCheckout: ${problem}`);
  const filled = (value) => typeof value === 'string' && value.trim() !== '';
  const given = (value) => value !== undefined && value !== null && value !== '';
  const isObject = (value) => value !== null && typeof value === 'object';
  const customerOf = (config) => (isObject(config.customer) ? config.customer : {});
  const accountOf = (config) =>
    isObject(config.settlementAccount) ? config.settlementAccount : {};

  // Each rule in turn; the first one a config breaks is what the merchant is told.
  const RULES = [
    [
      (c) => c.environment === 'sandbox' || c.environment === 'production',
      'environment must be "sandbox" or "production"',
    ],
    [(c) => filled(c.clientId), 'clientId (your OAuth client id) is required'],
    [
      (c) => filled(c.referenceCode) || Number.isFinite(c.referenceCode),
      'referenceCode is required',
    ],
    [(c) => filled(customerOf(c).firstName), 'customer.firstName is required'],
    [(c) => filled(customerOf(c).lastName), 'customer.lastName is required'],
    [(c) => filled(customerOf(c).emailAddress), 'customer.emailAddress is required'],
    [(c) => c.currency === 'NGN', 'currency must be "NGN"'],
    [(c) => Number.isFinite(c.amount) && c.amount > 0, 'amount must be a number greater than 0'],
    [
      (c) => !given(c.feeBearer) || c.feeBearer === 'account' || c.feeBearer === 'customer',
      'feeBearer must be "account" or "customer"',
    ],
    [
      (c) => filled(accountOf(c).bankCode) && filled(accountOf(c).accountNumber),
      'settlementAccount needs bankCode and accountNumber',
    ],
    [
      (c) => filled(c.redirectUrl) || typeof c.callback === 'function',
      'give either redirectUrl or a callback function',
    ],
    [(c) => !given(c.onClose) || typeof c.onClose === 'function', 'onClose must be a function'],
  ];

  /** The config as the server takes it: no functions, and no empty strings (wrappers send ''). */
  function sessionBody(config) {
    const keep = (from, keys) => {
      const kept = {};
      for (const key of keys) {
        if (given(from[key])) {
          kept[key] = from[key];
        }
      }
      return kept;
    };
    return Object.assign(
      keep(config, ['environment', 'clientId', 'currency', 'amount', 'feeBearer', 'redirectUrl']),
      keep(config, ['webhookUrl', 'customIconUrl', 'metadata']),
      {
        referenceCode: String(config.referenceCode),
        customer: keep(config.customer, ['firstName', 'lastName', 'emailAddress', 'phoneNumber']),
        settlementAccount: keep(config.settlementAccount, ['bankCode', 'accountNumber']),
      },
    );
  }

  let current = null;

  function problemWith(config) {
    if (scriptUrl === null) {
      return 'cannot tell which server loaded this script';
    }
    if (!isObject(config)) {
      return 'the config must be an object';
    }
    const broken = RULES.find((rule) => !rule[0](config));
    return broken === undefined ? null : broken[1];
  }

  function SafeHavenCheckout(config) {
    const handle = { close: () => undefined };
    const problem = problemWith(config);
    if (problem !== null) {
      fail(problem);
      return handle;
    }
    // One checkout at a time: a second call replaces the first.
    if (current !== null) {
      current.teardown();
    }
    const state = { config, closed: false, teardown: () => undefined };
    current = state;
    // The merchant closing it itself is not the customer closing it: no onClose then.
    handle.close = () => {
      state.closed = true;
      state.teardown();
    };
    openSession(state);
    return handle;
  }

  async function openSession(state) {
    let response;
    let payload;
    try {
      response = await fetch(`${apiBase}/checkout/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sessionBody(state.config)),
      });
      payload = await response.json().catch(() => null);
    } catch (error) {
      fail(`could not reach ${apiBase} (${error.message})`);
      return;
    }
    const data = isObject(payload) ? payload.data : null;
    if (!response.ok || !isObject(data) || !filled(data.pageUrl)) {
      const message = isObject(payload) ? payload.message : null;
      fail(filled(message) ? message : `the server answered HTTP ${response.status}`);
    } else if (!state.closed) {
      show(state, apiBase + data.pageUrl);
    }
  }

  function show(state, pageUrl) {
    const overlay = document.createElement('div');
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-label', 'Secure checkout');
    overlay.setAttribute('data-openibs-checkout', '');
    // Styled through the CSSOM, which a merchant's strict CSP still allows (style attributes not).
    overlay.style.cssText = [
      'position:fixed;top:0;right:0;bottom:0;left:0;z-index:2147483000',
      'display:flex;align-items:center;justify-content:center;background:rgba(17,24,39,0.6)',
    ].join(';');
    const frame = document.createElement('iframe');
    frame.title = 'Secure checkout';
    // The page's Copy buttons use the clipboard, which a cross-origin frame needs leave for.
    frame.allow = 'clipboard-write';
    frame.src = pageUrl;
    // A card on wide screens; the whole screen on phones, where every pixel is needed.
    const narrow = window.innerWidth < 520;
    frame.style.cssText = [
      'width:100%;height:100%;max-width:480px;border:0;background:#fff',
      'box-shadow:0 16px 48px rgba(0,0,0,0.3)',
      narrow ? 'max-height:100%;border-radius:0' : 'max-height:760px;border-radius:12px',
    ].join(';');
    // Focus goes into the page so the keyboard (and Escape, which the page handles) works there.
    frame.addEventListener('load', () => frame.focus());
    overlay.appendChild(frame);

    const root = document.documentElement;
    const previousOverflow = root.style.overflow;
    const previousFocus = document.activeElement;
    // Only our page, in our frame, may speak for the payment.
    const onMessage = (event) => {
      const message = event.data;
      if (event.origin !== apiOrigin || event.source !== frame.contentWindow) {
        return;
      }
      if (!isObject(message) || message.source !== SOURCE) {
        return;
      }
      if (message.type === 'completed') {
        state.teardown();
        finish(state.config, isObject(message.response) ? message.response : {});
      } else if (message.type === 'closed') {
        state.teardown();
        if (typeof state.config.onClose === 'function') {
          state.config.onClose();
        }
      }
    };
    state.teardown = () => {
      state.closed = true;
      window.removeEventListener('message', onMessage);
      overlay.remove();
      root.style.overflow = previousOverflow;
      if (isObject(previousFocus) && typeof previousFocus.focus === 'function') {
        previousFocus.focus();
      }
      if (current === state) {
        current = null;
      }
    };
    window.addEventListener('message', onMessage);
    // The merchant's page must not scroll behind the checkout.
    root.style.overflow = 'hidden';
    document.body.appendChild(overlay);
  }

  function finish(config, response) {
    if (filled(config.redirectUrl)) {
      const joiner = config.redirectUrl.includes('?') ? '&' : '?';
      const reference = encodeURIComponent(String(config.referenceCode));
      const status = encodeURIComponent(String(response.status));
      location.href = `${config.redirectUrl}${joiner}reference=${reference}&status=${status}`;
    } else {
      config.callback(response);
    }
  }

  window.SafeHavenCheckout = SafeHavenCheckout;
})();
