// The conflicts screen: choosing a suggested time previews the moved event on that conflict's
// timeline (the server worked out where each slot falls; this only moves the dashed block).
for (const form of document.querySelectorAll('form.conflict-move[data-conflict]')) {
  const id = form.dataset.conflict;
  const rect = document.getElementById(`preview-rect-${id}`);
  const label = document.getElementById(`preview-label-${id}`);
  const text = document.getElementById(`preview-text-${id}`);
  const show = (input) => {
    const { y, height } = input.dataset;
    if (rect && label && y !== undefined && height !== undefined) {
      rect.setAttribute('y', y);
      rect.setAttribute('height', height);
      label.setAttribute('y', String(Number(y) + Math.min(Number(height), 16) / 2 + 4));
      label.textContent = input.dataset.label;
      rect.setAttribute('visibility', 'visible');
      label.setAttribute('visibility', 'visible');
    } else {
      rect?.setAttribute('visibility', 'hidden');
      label?.setAttribute('visibility', 'hidden');
    }
    if (text) text.textContent = input.dataset.preview;
  };
  form.addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.name === 'slot' && event.target.checked) show(event.target);
  });
  // Back to the page with a time still chosen (the back button): draw it again.
  const chosen = form.querySelector('input[name="slot"]:checked');
  if (chosen) show(chosen);
}
