// Jadwal's web app script: what needs a live page. Every page works without it; this adds
// the live notifications panel, checks forms while typing, and sends the magic-link form.
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';

/** A request to Jadwal's JSON API with the browser's session and its CSRF token. */
export async function api(path, options = {}) {
  const headers = { 'Accept': 'application/json', ...(options.headers ?? {}) };
  if (options.method && options.method !== 'GET') headers['X-CSRF-Token'] = csrf;
  const response = await fetch(path, { credentials: 'same-origin', ...options, headers });
  if (!response.ok) {
    let message = response.statusText;
    try { message = (await response.json()).error?.message ?? message; } catch { /* not JSON */ }
    throw new Error(message);
  }
  return response.status === 204 ? null : response.json();
}

// The magic-link page presses its own button: a mail scanner's GET never signs anyone in.
const magic = document.getElementById('magic');
if (magic?.dataset.auto === 'true') magic.requestSubmit();

// Google answers in the fragment, which only this page sees; it posts the token to Jadwal.
const googleCallback = document.getElementById('google-callback');
if (googleCallback) {
  const answer = new URLSearchParams(location.hash.slice(1));
  for (const name of ['id_token', 'state', 'error']) googleCallback.elements.namedItem(name).value = answer.get(name) ?? '';
  history.replaceState(null, '', location.pathname);
  googleCallback.requestSubmit();
}

// Forms that ask first (deleting an event).
for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => { if (!confirm(form.dataset.confirm)) event.preventDefault(); });
}

// The event form: Add stays disabled until the form is valid, and says why beside the field.
const eventForm = document.getElementById('event-form');
if (eventForm) {
  const field = (name) => eventForm.elements.namedItem(name);
  const save = document.getElementById('save');
  const allDay = field('allDay');
  const showError = (name, message) => {
    const input = field(name);
    const note = document.getElementById(`${name}-error`);
    if (note) note.textContent = message;
    if (input) input.setAttribute('aria-invalid', message ? 'true' : 'false');
  };
  const check = (touched) => {
    eventForm.classList.toggle('all-day', allDay.checked);
    const title = field('title').value.trim();
    const titleMessage = title ? '' : document.getElementById('title-error').dataset.required;
    const start = field('startDate').value + (allDay.checked ? '' : 'T' + (field('startTime').value || '00:00'));
    const end = field('endDate').value + (allDay.checked ? '' : 'T' + (field('endTime').value || '00:00'));
    const ordered = field('startDate').value && field('endDate').value && end >= start;
    const orderMessage = ordered ? '' : document.getElementById('endDate-error').dataset.order;
    if (touched.has('title')) showError('title', titleMessage);
    if (touched.has('endDate') || touched.has('startDate')) showError('endDate', orderMessage);
    save.disabled = Boolean(titleMessage || orderMessage);
  };
  const touched = new Set();
  eventForm.addEventListener('input', (event) => {
    const name = event.target.name;
    if (name === 'startTime' || name === 'endTime') touched.add('endDate');
    touched.add(name === 'startDate' ? 'endDate' : name);
    // Moving the start moves an end that was before it along with it.
    if (name === 'startDate' && field('endDate').value < field('startDate').value) field('endDate').value = field('startDate').value;
    check(touched);
  });
  eventForm.addEventListener('change', () => check(touched));
  check(new Set());
}

// Notifications: the unread count and panel, kept live by the server's event stream.
const bell = document.getElementById('bell');
if (bell) {
  const panel = document.getElementById('notifications');
  const list = document.getElementById('notification-list');
  const badge = document.getElementById('unread');
  const timeFormat = new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'short' });
  const setUnread = (count) => { badge.textContent = String(count); badge.hidden = count === 0; };
  const render = (items) => {
    list.replaceChildren();
    if (items.length === 0) {
      const empty = document.createElement('li');
      empty.textContent = list.dataset.empty;
      list.append(empty);
    }
    for (const item of items) {
      const li = document.createElement('li');
      if (!item.read) li.classList.add('unread');
      const text = document.createElement('span');
      text.textContent = item.title + (item.body ? ' — ' + item.body : '');
      const when = document.createElement('time');
      when.dateTime = item.createdAt;
      when.textContent = timeFormat.format(new Date(item.createdAt));
      li.append(text, when);
      list.append(li);
    }
  };
  const refresh = async () => {
    const feed = await api('/api/v1/notifications?limit=20');
    render(feed.notifications ?? []);
    setUnread(feed.unreadCount ?? 0);
  };
  bell.addEventListener('click', async () => {
    const open = bell.getAttribute('aria-expanded') !== 'true';
    bell.setAttribute('aria-expanded', String(open));
    panel.hidden = !open;
    if (open) await refresh();
  });
  document.getElementById('read-all').addEventListener('click', async () => {
    await api('/api/v1/notifications/read-all', { method: 'POST' });
    await refresh();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !panel.hidden) { panel.hidden = true; bell.setAttribute('aria-expanded', 'false'); bell.focus(); }
  });
  if ('EventSource' in window) {
    let stream = null;
    let connected = false;
    // Calendar changes made elsewhere: the live parts of the page fetch themselves again. After a
    // reconnect (or a return from the back-forward cache) what was missed is fetched the same way.
    const changed = () => document.dispatchEvent(new Event('jadwal:calendar-changed'));
    const listen = () => {
      stream = new EventSource('/api/v1/notifications/stream');
      stream.addEventListener('notification', async () => {
        const count = await api('/api/v1/notifications/unread-count');
        setUnread(count.unreadCount ?? 0);
        if (!panel.hidden) await refresh();
      });
      stream.addEventListener('ready', () => { if (connected) changed(); connected = true; });
      stream.addEventListener('calendar', changed);
    };
    // A page kept in the back-forward cache must not keep its stream: browsers allow only a few
    // connections to one server, and every open stream takes one.
    window.addEventListener('pagehide', () => stream?.close());
    window.addEventListener('pageshow', (event) => { if (event.persisted) listen(); });
    listen();
  }
}

// Week and day views open at the working day (or an hour before now today), not at midnight;
// a link to a place on the page (#…) keeps its own place.
for (const grid of document.querySelectorAll('.timegrid[data-opening-hour]')) {
  const hour = document.getElementById('hour-' + grid.dataset.openingHour);
  if (hour && !location.hash) window.scrollTo({top: hour.getBoundingClientRect().top + window.scrollY, behavior: 'instant'});
}

// A phone-width window is marked for the server (one word in a cookie): it lands on Today and
// opens the calendar at the day view. The first visit, before the mark, is set right here.
const narrow = window.matchMedia('(max-width: 40rem)');
const markScreen = () => { document.cookie = `jadwal_screen=${narrow.matches ? 'narrow' : 'wide'}; path=/; max-age=31536000; samesite=lax`; };
markScreen();
narrow.addEventListener('change', markScreen);
const calendarView = document.querySelector('.calendar[data-default-view]');
if (calendarView && narrow.matches && !calendarView.classList.contains('view-day')) {
  const url = new URL(location.href);
  url.searchParams.set('view', 'day');
  location.replace(url);
}

// Live views: a part of the page marked data-live (the calendar's days, the Today list) is fetched
// again when the stream says a calendar changed — no reload, the scroll position and focus kept,
// and never while a field in it is being filled in (it waits until focus leaves the field).
if (document.querySelector('[data-live]')) {
  let timer = null;
  let busy = false;
  let waiting = false;
  // A field being typed in, or one filled in and not yet sent (a proposal's times, focus now on
  // its button), would be wiped by a redraw: the redraw waits for it.
  const typed = (field) => field.value !== field.defaultValue;
  const editing = () => (document.activeElement?.matches('[data-live] input, [data-live] select, [data-live] textarea') ?? false)
    || [...document.querySelectorAll('[data-live] textarea, [data-live] input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=submit]):not([type=button])')].some(typed);
  const later = () => { clearTimeout(timer); timer = setTimeout(refreshLive, 200); };
  async function refreshLive() {
    if (busy || editing()) { waiting = true; return; }
    busy = true;
    waiting = false;
    try {
      const response = await fetch(location.href, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } });
      if (!response.ok || response.redirected) return;
      const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
      // Someone may have started filling in a form while the page was fetched.
      if (editing()) { waiting = true; return; }
      const [x, y] = [window.scrollX, window.scrollY];
      // Focus is found again by the element's id, else by its place under the nearest element with one
      // (a to-do's check box in a Today row): a keyboard user keeps their place through a redraw.
      const active = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
      const focused = active && {
        id: active.id,
        within: active.closest('[id]')?.id,
        selector: active.tagName.toLowerCase() + [...active.classList].map((c) => '.' + CSS.escape(c)).join(''),
      };
      for (const region of document.querySelectorAll('[data-live]')) {
        const next = fresh.querySelector(`[data-live="${region.dataset.live}"]`);
        if (next && next.innerHTML !== region.innerHTML) region.replaceChildren(...document.adoptNode(next).childNodes);
      }
      // A calendar seen for the first time brings its colour.
      const style = document.querySelector('style[nonce]');
      const freshStyle = fresh.querySelector('style');
      if (style && freshStyle && style.textContent !== freshStyle.textContent) style.textContent = freshStyle.textContent;
      window.scrollTo(x, y);
      if (focused && (!document.activeElement || document.activeElement === document.body)) {
        const within = focused.within && document.getElementById(focused.within);
        const target = (focused.id && document.getElementById(focused.id))
          || (within && (within.matches(focused.selector) ? within : within.querySelector(focused.selector)));
        target?.focus({ preventScroll: true });
      }
      document.dispatchEvent(new Event('jadwal:live-refreshed'));
    } catch {
      // Offline or signed out: the next change, or a reload, tries again.
    } finally {
      busy = false;
      if (waiting) later();
    }
  }
  document.addEventListener('jadwal:calendar-changed', later);
  document.addEventListener('focusout', () => { if (waiting) later(); });
  document.addEventListener('reset', () => { if (waiting) later(); });
}
