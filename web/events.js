// The signed-in player's own events (turn, match started and ended, invitations, rematch offers, friends, seeks):
// GET /v1/me/events followed through the TypeScript SDK's stream (session.client.events()), one stream per tab
// while a player is signed in. The SDK opens it with a one-time ticket (POST /v1/me/events/ticket: no credential in
// the URL), knows it is live at `ready`, resumes with Last-Event-ID after the last event seen, and reconnects with a
// renewed access token when the service ends the stream because the token expired (or with a growing wait after a
// dropped connection). Pages listen with onMyEvent(); news() is what came since the page loaded, newest first.

import * as session from './session.js';

const KEPT = 20; // the news a page can show

const listeners = new Set();
const kept = []; // the events received, newest first
let following = null; // { player, controller, live }

/** Call fn(event) for each of the player's events, and fn({type: 'ready'}) each time the stream is (again) live
 * (read what you show then: nothing after it is missed); returns a function that stops it. */
export function onMyEvent(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether the stream is open and caught up now (else pages read again on a timer). */
export function live() {
  return Boolean(following && following.live);
}

/** The events received since the page loaded, newest first. */
export function news() {
  return [...kept];
}

function tell(event) {
  for (const fn of [...listeners]) {
    try {
      fn(event);
    } catch (error) {
      console.warn('my events listener:', error); // eslint-disable-line no-console
    }
  }
}

function stop() {
  if (!following) return;
  following.controller.abort();
  following.live = false;
  following = null;
}

/** Follow the signed-in player's events from now on (nobody signed in: stop). */
function start() {
  const me = session.player();
  if (following && me && following.player === me.id) return;
  stop();
  kept.length = 0; // another player's news (or none)
  if (!me) return;
  const controller = new AbortController();
  const mine = { player: me.id, controller, live: false };
  following = mine;
  (async () => {
    try {
      const stream = session.client.events({ signal: controller.signal,
        onOpen: () => { mine.live = false; } }); // connected: live once `ready` says it caught up
      for await (const event of stream) {
        if (event.type === 'ready') {
          mine.live = true;
          document.body.dataset.myEvents = 'live';
          tell(event);
          continue;
        }
        kept.unshift(event);
        kept.length = Math.min(kept.length, KEPT);
        tell(event);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      console.warn('my events:', error.message); // eslint-disable-line no-console
      mine.live = false;
      delete document.body.dataset.myEvents;
      session.lost(); // a refused refresh ended the session: the page says so
      if (following === mine) {
        following = null;
        // a refused cursor or an unexpected failure: follow again from now on (pages read again on `ready`)
        setTimeout(() => { if (!following) start(); }, 5000);
      }
    }
  })();
}

session.onChange(start);
start();
