// The service worker of pushes (issue 48): shows each push the service sends (docs/guides/push.md) as a
// notification, one per match (its tag), and opens the match when the notification is clicked.

const TITLES = {
  yourTurn: 'Your turn', matchEnded: 'A match ended', invited: 'You are invited to a match',
  rematchOffered: 'A rematch is offered', seekMatched: 'Your seek found a match',
  seatTakenOver: 'Your clock ran out: a bot plays your seat',
};

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (_) {
    data = {};
  }
  const title = TITLES[data.type] || 'Firebreak';
  event.waitUntil(self.registration.showNotification(title, {
    body: data.matchId ? `Match ${data.matchId}` : '', tag: data.matchId || data.type || 'firebreak', data,
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const matchId = (event.notification.data || {}).matchId;
  event.waitUntil(self.clients.openWindow(matchId ? `/#/match/${encodeURIComponent(matchId)}` : '/'));
});
