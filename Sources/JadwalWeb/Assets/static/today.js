// The Today screen: a to-do is marked done (or not) through the JSON API where it stands, without
// reloading the page; without this script the same button posts its form and comes back here.
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';
const status = document.getElementById('today-status');

document.addEventListener('submit', async (event) => {
  const form = event.target.closest('form.today-check');
  if (!form || !form.dataset.api) return;
  event.preventDefault();
  const button = form.querySelector('button');
  const done = form.elements.namedItem('done');
  const etag = form.elements.namedItem('etag');
  button.disabled = true;
  try {
    const response = await fetch(form.dataset.api, {
      method: 'PATCH', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'Accept': 'application/json', 'If-Match': etag.value, 'X-CSRF-Token': csrf },
      body: JSON.stringify({ done: done.value === 'true' }),
    });
    if (!response.ok) {
      // Changed on another device meanwhile (412), or no longer there: the page shows it as it is now.
      let message = response.statusText;
      try { message = (await response.json()).error?.message ?? message; } catch { /* not JSON */ }
      throw new Error(message);
    }
    const answer = await response.json();
    const isDone = answer.done;
    etag.value = answer.etag;
    done.value = isDone ? 'false' : 'true';
    button.setAttribute('aria-checked', String(isDone));
    button.setAttribute('aria-label', isDone ? button.dataset.labelDone : button.dataset.labelOpen);
    form.closest('li')?.classList.toggle('done', isDone);
    if (status) status.textContent = button.getAttribute('aria-label');
  } catch (error) {
    if (status) status.textContent = error.message;
  } finally {
    button.disabled = false;
    button.focus();
  }
});
