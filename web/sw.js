// The service worker of pushes (issue 48): shows each push the service sends (docs/guides/push.md) as a
// notification, one per match (its tag), and opens the match when the notification is clicked. Its words are the
// web catalogue's (web/i18n.js) in the language the page registered it with (its URL's ?lang=; none: the browser's
// Accept-Language); a worker cannot import i18n.js (it reads the page's choice from localStorage).

const LANG = new URL(self.location.href).searchParams.get('lang') || '';
let messages = null; // the catalogue's messages, read once per worker

async function readWords() {
  if (messages) return;
  try {
    const response = await fetch(`/static/locale.json${LANG ? `?lang=${encodeURIComponent(LANG)}` : ''}`);
    messages = response.ok ? (await response.json()).messages || {} : {};
  } catch (_) {
    messages = {};
  }
}

/** A phrase in the worker's language (English until the catalogue is read). */
function t(msgid, params = {}) {
  const found = messages && typeof messages[msgid] === 'string' && messages[msgid] ? messages[msgid] : msgid;
  return found.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

function titleOf(type) {
  const titles = {
    yourTurn: t('Your turn'), matchEnded: t('A match ended'), invited: t('You are invited to a match'),
    rematchOffered: t('A rematch is offered'), seekMatched: t('Your seek found a match'),
    seatTakenOver: t('Your clock ran out: a bot plays your seat'),
  };
  return titles[type] || 'Firebreak';
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (_) {
    data = {};
  }
  event.waitUntil(readWords().then(() => self.registration.showNotification(titleOf(data.type), {
    body: data.matchId ? t('Match {id}', { id: data.matchId }) : '', tag: data.matchId || data.type || 'firebreak',
    data,
  })));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const matchId = (event.notification.data || {}).matchId;
  event.waitUntil(self.clients.openWindow(matchId ? `/#/match/${encodeURIComponent(matchId)}` : '/'));
});
