// The settings screen: copy buttons for a new app password and a setup link. Without this
// script the fields are still there to select and copy by hand.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      document.execCommand?.('copy'); // older browsers, or a page not served over https
    }
    const label = button.textContent;
    button.textContent = button.dataset.copied;
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}
