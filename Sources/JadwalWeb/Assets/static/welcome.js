// The first-run guide: on the time zone step, propose this browser's zone (the person still
// saves it themselves); copy buttons for the setup link. Without this script the zone list
// shows the account's zone and the link can be copied by hand.
const zone = document.getElementById('timeZone');
const proposal = document.getElementById('timeZone-proposal');
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (zone && proposal && browserZone && zone.getAttribute('aria-invalid') !== 'true'
    && [...zone.options].some((option) => option.value === browserZone)) {
  zone.value = browserZone;
  proposal.textContent = proposal.dataset.proposal.replace('{zone}', browserZone);
  proposal.hidden = false;
}
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      document.execCommand?.('copy');
    }
    const label = button.textContent;
    button.textContent = button.dataset.copied;
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}
