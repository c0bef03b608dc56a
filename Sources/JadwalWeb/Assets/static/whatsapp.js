// Settings → Connect WhatsApp: sends the export to the JSON API with a progress bar, then shows
// what was found, or the problem (asking which participant is you when the API cannot tell).
// Without this script the same form posts to the page, which imports it on the server.
const form = document.getElementById('import-form');
if (form) {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';
  const texts = JSON.parse(form.dataset.texts || '{}');
  const text = (key, values = {}) => Object.entries(values)
    .reduce((result, [name, value]) => result.replaceAll(`{${name}}`, String(value)), texts[key] ?? key);
  const result = document.getElementById('import-result');
  const box = document.getElementById('upload-progress');
  const bar = document.getElementById('import-progress');
  const button = document.getElementById('import-button');
  const choices = document.getElementById('me-choices');
  const options = document.getElementById('me-options');
  const element = (tag, content, attributes = {}) => {
    const node = document.createElement(tag);
    if (content !== undefined) node.append(...[content].flat());
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    return node;
  };

  const showError = (body) => {
    const error = body?.error ?? {};
    let message = texts[`error_${error.code}`] ?? error.message ?? texts.whatsappUploadFailed;
    if (error.line) message += ' ' + text('whatsappErrorLine', { line: error.line });
    const alert = element('div', element('p', message), { class: 'form-error import-error', role: 'alert' });
    result.replaceChildren(alert);
    const participants = error.participants ?? [];
    options.replaceChildren(...participants.map((name, index) => element('div', [
      element('input', undefined, { type: 'radio', id: `me-${index}`, name: 'me', value: name }),
      element('label', name, { for: `me-${index}` }),
    ], { class: 'check' })));
    choices.hidden = participants.length === 0;
    if (participants.length) options.querySelector('input').focus();
  };

  const showSummary = (report) => {
    choices.hidden = true;
    options.replaceChildren();
    const weekOf = (start) => (start && start.length >= 10 ? `/calendar?view=week&date=${start.slice(0, 10)}` : '/calendar');
    const summary = element('div', [
      element('h3', texts.whatsappSummaryTitle ?? ''),
      element('p', [element('bdi', report.file.name ?? ''), ` · ${texts.whatsappYouAre} `, element('bdi', report.file.me)]),
      element('p', text('whatsappSummaryMessages', {
        count: report.file.messages, new: report.messages.new, duplicates: report.messages.duplicates, skipped: report.messages.skipped,
      })),
      element('ul', report.conversations.map((c) => element('li', [`${c.partner}: `, element('strong', text(`state_${c.state}`))])),
        { class: 'summary-conversations' }),
    ], { class: 'import-summary' });
    if (report.events.length === 0) summary.append(element('p', texts.whatsappNoEvents));
    summary.append(element('ul', report.events.map((e) => element('li', [
      `${text(`change_${e.change}`)}: `, element('a', e.title ?? texts.untitled, { href: weekOf(e.start) }), ' ',
      element('span', e.start ?? '', { class: 'hint' }), ' · ', element('a', texts.whatsappSeeInCalendar, { href: weekOf(e.start) }),
    ])), { class: 'summary-events' }));
    result.replaceChildren(summary);
    // The list of chats below now has this one: take it from a fresh copy of the page.
    fetch(location.pathname, { credentials: 'same-origin' }).then((response) => response.text()).then((html) => {
      const fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('chats');
      if (!fresh) return;
      // app.js asks before forgetting a chat on the forms it found at load; these are new.
      for (const ask of fresh.querySelectorAll('form[data-confirm]')) {
        ask.addEventListener('submit', (event) => { if (!confirm(ask.dataset.confirm)) event.preventDefault(); });
      }
      document.getElementById('chats').replaceWith(fresh);
    }).catch(() => { /* the list shows it on the next visit */ });
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const request = new XMLHttpRequest();
    request.open('POST', form.dataset.api);
    request.setRequestHeader('X-CSRF-Token', csrf);
    request.setRequestHeader('Accept', 'application/json');
    request.responseType = 'json';
    box.hidden = false;
    bar.value = 0;
    button.disabled = true;
    request.upload.addEventListener('progress', (progress) => {
      if (progress.lengthComputable) bar.value = Math.round((progress.loaded / progress.total) * 100);
    });
    request.addEventListener('loadend', () => {
      button.disabled = false;
      bar.value = 100;
      box.hidden = true;
      if (request.status === 200 && request.response) showSummary(request.response);
      else showError(request.response);
    });
    request.send(new FormData(form));
  });
}

// Link with phone number or QR code: while a code waits, follow the link's state and reload the
// page when it changes (linked, failed, expired, or WhatsApp turned the QR code), so the page
// shows what happened.
const linkSection = document.getElementById('link');
if (linkSection && linkSection.dataset.state === 'waiting') {
  const qr = document.getElementById('link-qr');
  let last = qr ? `qr-${qr.dataset.qr}` : (document.getElementById('link-code') ? 'waiting' : 'asking');
  const follow = async () => {
    try {
      const response = await fetch('/settings/whatsapp/link/state', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      if (response.ok) {
        const { state } = await response.json();
        if (state !== last) {
          window.location.reload();
          return;
        }
      }
    } catch (_) {
      // A network blip: ask again on the next round.
    }
    setTimeout(follow, 2000);
  };
  setTimeout(follow, 2000);
}
