// Settings → Notifications on this device: subscribes this browser to Web Push with the server's
// VAPID key and registers the subscription with Jadwal's API (which checks it and keeps it for
// this account). Without it the page lists the browsers and removes them by its forms.
const root = document.getElementById('push-settings');
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';
const status = document.getElementById('push-status');
const enable = document.getElementById('push-enable');
const disable = document.getElementById('push-disable');

const say = (key, detail = '') => { status.textContent = root.dataset[key] + (detail ? ' ' + detail : ''); };

/** A request to Jadwal's JSON API with the browser's session and its CSRF token. */
async function api(path, options = {}) {
  const headers = { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-Token': csrf };
  const response = await fetch(path, { credentials: 'same-origin', ...options, headers });
  const body = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error?.message ?? response.statusText);
  return body;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

const sameKey = (buffer) => {
  if (!buffer) return true;  // the browser does not say: assume it is ours; the server checks what it can
  const ours = keyBytes(root.dataset.key);
  const theirs = new Uint8Array(buffer);
  return ours.length === theirs.length && ours.every((byte, index) => byte === theirs[index]);
};

/** A name for this browser in the list ("Chrome · Android"), from what it says about itself. */
function deviceName() {
  const agent = navigator.userAgent;
  const browser = [['Edg/', 'Edge'], ['OPR/', 'Opera'], ['Firefox/', 'Firefox'], ['Chrome/', 'Chrome'], ['Safari/', 'Safari']].find(([mark]) => agent.includes(mark))?.[1];
  const system = [['iPhone', 'iPhone'], ['iPad', 'iPad'], ['Android', 'Android'], ['Mac OS X', 'macOS'], ['Windows', 'Windows'], ['Linux', 'Linux']].find(([mark]) => agent.includes(mark))?.[1];
  return [browser, system].filter(Boolean).join(' · ') || 'Browser';
}

/** Sends a subscription (a PushSubscription, or its JSON) to Jadwal. */
export async function register(subscription) {
  const json = typeof subscription.toJSON === 'function' ? subscription.toJSON() : subscription;
  return api('/api/v1/web-push/subscriptions', {
    method: 'POST',
    body: JSON.stringify({ endpoint: json.endpoint, keys: json.keys, name: deviceName(), applicationServerKey: root.dataset.key }),
  });
}

async function forget(endpoint) {
  const list = await api('/api/v1/web-push/subscriptions');
  for (const item of list.subscriptions ?? []) {
    if (item.endpoint === endpoint) await api(`/api/v1/web-push/subscriptions/${item.id}`, { method: 'DELETE' });
  }
}

async function start() {
  if (!root) return;
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    say('unsupported');
    return;
  }
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  const show = (on) => { enable.hidden = on; disable.hidden = !on; };

  if (subscription && !sameKey(subscription.options?.applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
    say('stale');
  } else if (subscription) {
    // The server may have forgotten it (removed elsewhere, or a push service said it was gone).
    try { await register(subscription); say('on'); } catch (error) { say('failed', error.message); }
  } else {
    say(Notification.permission === 'denied' ? 'denied' : 'off');
  }
  show(Boolean(subscription));

  // Busy while the browser asks: marked with aria-disabled, not disabled, which would take the
  // focus away from a keyboard user and leave it nowhere.
  enable.addEventListener('click', async () => {
    if (enable.getAttribute('aria-disabled') === 'true') return;
    enable.setAttribute('aria-disabled', 'true');
    say('asking');
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') { say('denied'); return; }
      try {
        // A browser that cannot reach its push service may never answer: give up after 20 s and say so.
        const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('no answer from the push service in 20 s')), 20000));
        const asked = registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(root.dataset.key) });
        subscription = await Promise.race([asked, timeout]);
      } catch (error) {
        say('failed', `${error.name}: ${error.message}`);
        return;
      }
      await register(subscription);
      say('saved');
      show(true);
      location.assign('/settings/push');
    } catch (error) {
      say('failed', error.message);
    } finally {
      enable.removeAttribute('aria-disabled');
    }
  });

  disable.addEventListener('click', async () => {
    if (!subscription) return;
    const endpoint = subscription.endpoint;
    await subscription.unsubscribe();
    await forget(endpoint);
    subscription = null;
    say('removedHere');
    show(false);
    location.assign('/settings/push');
  });
}

start().catch((error) => say('failed', error.message));
