// Jadwal's service worker (served at /sw.js, so its scope is the whole app). The server puts
// this build's shell addresses and the offline texts into CONFIG.
//
// What it keeps: the shell (versioned scripts, styles, icons) and, for the session that is
// signed in, the last day view and Today, so they can be read without a network. Every signed-in
// page carries its session's tag; a page of another session, or a page with none (signed out),
// empties what was kept first, so one session's pages are never shown to another.
// It also shows Web Push notifications and opens the app where a tap points.
const CONFIG = /*CONFIG*/{};
const SHELL = 'jadwal-shell-' + CONFIG.version;
const PAGES = 'jadwal-pages';
const TAG_KEY = '/__jadwal/session-tag';
const DAY_KEY = '/__jadwal/last-day';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(CONFIG.shell)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('jadwal-shell-') && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** A page worth keeping for offline reading: a day view, or Today. */
function isDayView(url) {
  return (url.pathname === '/calendar' && url.searchParams.get('view') === 'day') || url.pathname === '/today';
}

async function storedTag() {
  const pages = await caches.open(PAGES);
  const answer = await pages.match(TAG_KEY);
  return answer ? answer.text() : null;
}

/** Keeps a page of the session `tag`; another session's (or no session's) pages go first. */
async function remember(url, response) {
  const tag = response.headers.get(CONFIG.header);
  if (!tag) {
    await caches.delete(PAGES);
    return;
  }
  if ((await storedTag()) !== tag) {
    await caches.delete(PAGES);
    await (await caches.open(PAGES)).put(TAG_KEY, new Response(tag));
  }
  if (response.ok && isDayView(url)) {
    const lang = (await response.clone().text()).match(/<html lang="(\w+)"/)?.[1] ?? 'en';
    const headers = new Headers(response.headers);
    headers.set('X-Jadwal-Kept-From', url.pathname + url.search);
    headers.set('X-Jadwal-Lang', lang);
    const pages = await caches.open(PAGES);
    await pages.put(DAY_KEY, new Response(await response.clone().blob(), { status: 200, headers }));
  }
}

/** Offline: the kept day view with a note saying so, else a page that says what is missing. */
async function offline() {
  const pages = await caches.open(PAGES);
  const kept = await pages.match(DAY_KEY);
  if (kept) {
    const lang = kept.headers.get('X-Jadwal-Lang') === 'ar' ? 'ar' : 'en';
    const html = (await kept.text()).replace(
      '<main id="main" tabindex="-1">',
      `<main id="main" tabindex="-1"><p class="notice offline-note" role="status">${CONFIG.offline[lang]}</p>`);
    return new Response(html, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  const lang = (self.navigator.language || 'en').startsWith('ar') ? 'ar' : 'en';
  const html = `<!doctype html><html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${CONFIG.offlineTitle[lang]}</title>` +
    `<link rel="stylesheet" href="${CONFIG.css}"></head><body><main id="main"><h1>${CONFIG.offlineTitle[lang]}</h1>` +
    `<p>${CONFIG.offlineBody[lang]}</p></main></body></html>`;
  return new Response(html, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/static/')) {
    event.respondWith(caches.match(request, { cacheName: SHELL }).then((kept) => kept ?? fetch(request)));
    return;
  }
  if (request.mode !== 'navigate') return;  // the API, the event stream: always the network
  event.respondWith((async () => {
    let response;
    try {
      response = await fetch(request);
    } catch {
      return offline();
    }
    event.waitUntil(remember(url, response.clone()));
    return response;
  })());
});

// Web Push: the server's message (JadwalJobs/NotificationWebPush.swift), already decrypted by the browser.
self.addEventListener('push', (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch { message = { title: event.data?.text() ?? 'Jadwal' }; }
  const title = message.title || 'Jadwal';
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body ?? '',
    tag: message.tag,
    lang: message.lang,
    dir: message.dir === 'rtl' ? 'rtl' : 'ltr',
    icon: CONFIG.shell.find((path) => path.includes('icon-192.png')),
    requireInteraction: Boolean(message.urgent),
    data: { url: message.url || '/', kind: message.kind, id: message.id },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/', self.location.origin);
  event.waitUntil((async () => {
    for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) {
      if (new URL(client.url).origin === self.location.origin && 'focus' in client) {
        await client.focus();
        if (target.origin === self.location.origin) return client.navigate(target.href);
        return;
      }
    }
    return self.clients.openWindow(target.href);
  })());
});
