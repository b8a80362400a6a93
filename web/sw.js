// The service worker of pushes (issues 48 and 50): shows each push the service sends (docs/guides/push.md) as a
// notification in the player's language - the service writes its title and body in the player's saved locale -
// one per match (its tag), and opens the match when the notification is clicked.

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (_) {
    data = {};
  }
  const shown = data.notification || {};
  event.waitUntil(self.registration.showNotification(shown.title || 'Firebreak', {
    body: shown.body || '', tag: data.matchId || data.type || 'firebreak', data,
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const matchId = (event.notification.data || {}).matchId;
  event.waitUntil(self.clients.openWindow(matchId ? `/#/match/${encodeURIComponent(matchId)}` : '/'));
});
