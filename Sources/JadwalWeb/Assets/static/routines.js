// The routine form's days: a preset ticks its days, and ticking a day by hand makes the
// choice "chosen days". Without this script the form still works: the server reads the preset.
const form = document.getElementById('routine-form');
if (form) {
  const boxes = [...form.querySelectorAll('#days input[type=checkbox]')];
  const custom = form.querySelector('input[name=preset][value=custom]');
  for (const preset of form.querySelectorAll('input[name=preset]')) {
    preset.addEventListener('change', () => {
      if (!preset.checked || !preset.dataset.days) return;
      const days = new Set(preset.dataset.days.split(' '));
      for (const box of boxes) box.checked = days.has(box.id.slice(3));
    });
  }
  for (const box of boxes) box.addEventListener('change', () => { if (custom) custom.checked = true; });
}
