// The OpenIBS dashboard's only script. Pages work without it; it adds the live refresh of lists,
// confirmation of destructive actions, filling a key field from a file, and copy buttons.
(() => {
  const POLL_MS = 3000;
  // Bounded cost: a tab polls only while visible, and stops after this long without input.
  const IDLE_STOP_MS = 30 * 60 * 1000;
  let lastInput = Date.now();
  for (const type of ['keydown', 'pointerdown', 'scroll']) {
    addEventListener(
      type,
      () => {
        lastInput = Date.now();
      },
      { passive: true },
    );
  }

  function busy(region) {
    // Do not swap a region under the person using it.
    return (
      region.contains(document.activeElement) || region.querySelector('details[open]') !== null
    );
  }

  function live(region) {
    let stopped = false;
    let failures = 0;
    const tick = async () => {
      if (stopped) {
        return;
      }
      if (
        document.visibilityState === 'visible' &&
        Date.now() - lastInput < IDLE_STOP_MS &&
        !busy(region)
      ) {
        try {
          const response = await fetch(region.dataset.live, {
            headers: { 'x-dashboard-live': '1' },
            credentials: 'same-origin',
            cache: 'no-store',
          });
          if (response.status === 401) {
            stopped = true;
            return;
          }
          if (response.ok) {
            const markup = await response.text();
            if (markup !== region.dataset.lastMarkup) {
              region.dataset.lastMarkup = markup;
              region.innerHTML = markup;
            }
            failures = 0;
          } else {
            failures += 1;
          }
        } catch {
          failures += 1;
        }
      }
      setTimeout(tick, POLL_MS * Math.min(2 ** failures, 20));
    };
    setTimeout(tick, POLL_MS);
  }

  document.querySelectorAll('[data-live]').forEach(live);

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.dataset.confirm && !confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });

  document.querySelectorAll('input[type=file][data-fills]').forEach((input) => {
    input.addEventListener('change', async () => {
      const file = input.files?.[0];
      const target = document.getElementById(input.dataset.fills);
      if (file && target) {
        target.value = await file.text();
      }
    });
  });

  document.querySelectorAll('button[data-copy]').forEach((button) => {
    button.addEventListener('click', async () => {
      const source = document.getElementById(button.dataset.copy);
      if (source && navigator.clipboard) {
        await navigator.clipboard.writeText(source.textContent || '');
        button.textContent = 'Copied';
      }
    });
  });
})();
