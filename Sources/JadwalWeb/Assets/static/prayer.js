// Settings → Prayer times: "Use my location" fills the coordinates and time zone from the
// browser, and the copy buttons copy the subscription link. Without it the form still works:
// the coordinates are typed by hand, the links selected and copied by hand.
const button = document.getElementById('use-location');
const status = document.getElementById('location-status');
if (button && status) {
  status.textContent = '';
  if (!('geolocation' in navigator)) {
    status.textContent = status.dataset.absent;
  } else {
    button.hidden = false;
    button.addEventListener('click', () => {
      status.textContent = status.dataset.finding;
      navigator.geolocation.getCurrentPosition((position) => {
        const set = (id, value) => { document.getElementById(id).value = value; };
        set('latitude', position.coords.latitude.toFixed(4));
        set('longitude', position.coords.longitude.toFixed(4));
        set('timeZone', Intl.DateTimeFormat().resolvedOptions().timeZone ?? '');
        document.getElementById('place-coordinates').checked = true;
        status.textContent = status.dataset.found;
      }, () => {
        // Denied, or no fix: say so, and leave the fields as they were.
        status.textContent = status.dataset.denied;
      }, { timeout: 15000, maximumAge: 600000 });
    });
  }
}

const copied = document.getElementById('copy-status');
for (const copy of document.querySelectorAll('button[data-copy]')) {
  copy.addEventListener('click', async () => {
    const field = document.getElementById(copy.dataset.copy);
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      if (copied) copied.textContent = copied.dataset.copied;
    } catch {
      // The clipboard may be refused; the text stays selected for copying by hand.
    }
  });
}
