// Registers the service worker on every page: it makes the app installable and keeps the shell
// and the last day view readable offline (static/sw.js says how).
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => { /* the app works without it */ });
}
