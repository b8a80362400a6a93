// The event stream's edges against the live service: a stream cut mid-way resumes after the last event seen
// (no gap, no repeat); an access token that expires ends the stream, which renews it and reconnects
// (FIREBREAK_SHORT_URL: an API process whose access tokens live 3 seconds); the ticket is used when offered.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { Firebreak, FirebreakError } from '../dist/index.js';

const BASE = process.env.FIREBREAK_URL;
const SHORT = process.env.FIREBREAK_SHORT_URL;

/** A fetch that counts requests by path, and cuts the first `cuts` event streams after their first event. */
function instrumented(cuts = 0) {
  const counts = new Map();
  let left = cuts;
  const fetchImpl = async (request) => {
    const path = new URL(request.url).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const response = await fetch(request);
    if (path !== '/v1/me/events' || left === 0 || !response.body) return response;
    left -= 1;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const cut = new ReadableStream({
      async pull(controller) { // hold the body back until it holds a whole invited event, pass that on, fail
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return controller.close();
          text += decoder.decode(value, { stream: true });
          const end = /event: invited[\s\S]*?(\r\n\r\n|\n\n|\r\r)/.exec(text);
          if (!end) continue;
          controller.enqueue(new TextEncoder().encode(text.slice(0, end.index + end[0].length)));
          await reader.cancel();
          return controller.error(new TypeError('connection reset (test)'));
        }
      },
    });
    return new Response(cut, { status: response.status, headers: response.headers });
  };
  return { counts, fetchImpl };
}

/** Two players; `ann` invites `bob` to `count` private matches; the invited events bob gets, in order. */
async function invitations(base, bob, count) {
  const ann = new Firebreak({ baseUrl: base });
  await ann.signInAsGuest('ann', randomUUID());
  const bobId = (await bob.me()).id;
  const made = [];
  for (let i = 0; i < count; i++) {
    const { matchId } = await ann.createMatch({ title: 'london', seats: 2, private: true });
    await ann.joinMatch(matchId);
    await ann.invite(matchId, { playerIds: [bobId] });
    made.push(matchId);
  }
  return made;
}

test('a stream cut after an event resumes after it: every event once, in order', async () => {
  const { counts, fetchImpl } = instrumented(2);
  const bob = new Firebreak({ baseUrl: BASE, fetch: fetchImpl });
  await bob.signInAsGuest('bob', randomUUID());
  const made = await invitations(BASE, bob, 4);
  const got = [];
  const stop = new AbortController();
  for await (const event of bob.events({ after: '0', signal: stop.signal, backoff: { first: 20 } })) {
    if (event.type === 'invited') got.push(event.matchId);
    if (got.length === made.length) stop.abort();
  }
  assert.deepEqual(got, made);
  assert.ok(counts.get('/v1/me/events') >= 3, `connections: ${counts.get('/v1/me/events')}`);
  // the invitations are there to answer: bob accepts the first, declines the second
  const open = (await bob.invitations()).items.map((i) => i.match.id);
  assert.deepEqual(new Set(open), new Set(made));
  const accepted = await bob.answerInvitation(made[0], true);
  assert.equal(accepted.started, true);
  assert.equal((await bob.answerInvitation(made[1], false)).accepted, false);
  assert.equal((await bob.invitations()).items.length, 2);
});

test('the stream uses a one-time ticket exactly when the service offers one', async () => {
  const document = await (await fetch(`${BASE}/v1/openapi.json`)).json();
  const offered = '/v1/me/events/ticket' in document.paths;
  const { counts, fetchImpl } = instrumented();
  const bob = new Firebreak({ baseUrl: BASE, fetch: fetchImpl });
  await bob.signInAsGuest('bob', randomUUID());
  const stop = new AbortController();
  for await (const _ of bob.events({ signal: stop.signal, onOpen: () => stop.abort() })) break;
  assert.equal(bob.ticketsOffered, offered);
  assert.equal(counts.get('/v1/me/events/ticket'), 1);
});

test('a stream whose access token expires renews it and goes on after the last event', { skip: !SHORT }, async () => {
  const { counts, fetchImpl } = instrumented();
  const bob = new Firebreak({ baseUrl: SHORT, fetch: fetchImpl });
  await bob.signInAsGuest('bob', randomUUID());
  const stop = new AbortController();
  const got = [];
  let made = [];
  const reconnected = new Promise((resolve) => {
    const look = setInterval(() => {
      if ((counts.get('/v1/me/events') ?? 0) >= 2) resolve(clearInterval(look));
    }, 50);
  });
  const following = (async () => {
    for await (const event of bob.events({ signal: stop.signal, backoff: { first: 20 } })) {
      if (event.type === 'invited') got.push(event.matchId);
      if (got.length === 1) stop.abort();
    }
  })();
  await reconnected; // the first connection ended when its token expired; the second runs on a renewed one
  assert.ok((counts.get('/v1/auth/refresh') ?? 0) >= 1);
  made = await invitations(SHORT, bob, 1);
  await following;
  assert.deepEqual(got, made);
});

test('a cursor refused ends following with a typed error: not a cursor, or older than the events kept', async () => {
  const bob = new Firebreak({ baseUrl: BASE });
  await bob.signInAsGuest('bob', randomUUID());
  for (const [after, status, code] of [['not-a-cursor', 422, 'BAD_CURSOR'], ['12-0', 410, 'CURSOR_EXPIRED']]) {
    const following = bob.events({ after })[Symbol.asyncIterator]();
    await assert.rejects(following.next(), (error) => error instanceof FirebreakError && error.status === status
      && error.code === code);
  }
});

test('signing out ends an open stream with a typed error, and a signed-out client cannot follow', async () => {
  const bob = new Firebreak({ baseUrl: BASE });
  await bob.signInAsGuest('bob', randomUUID());
  let opened;
  const open = new Promise((resolve) => { opened = resolve; });
  const following = (async () => {
    for await (const _ of bob.events({ onOpen: () => opened() })) { /* no event is due */ }
  })();
  await open;
  await bob.signOut();
  await assert.rejects(following, (error) => error instanceof FirebreakError && error.status === 401
    && error.code === 'UNAUTHENTICATED');
  for (const ticket of ['auto', 'never']) {
    await assert.rejects(bob.events({ ticket })[Symbol.asyncIterator]().next(),
      (error) => error instanceof FirebreakError && error.status === 401, ticket);
  }
});

test('push registration: a native device token is registered and removed', async () => {
  const bob = new Firebreak({ baseUrl: BASE });
  await bob.signInAsGuest('bob', randomUUID());
  const registered = await bob.registerPushDevice(`fcm-${randomUUID()}`);
  const id = registered.subscription.id;
  const listed = (await bob.api.GET('/v1/me/push-subscriptions')).data;
  assert.ok(listed?.items.some((s) => s.id === id));
  await bob.removePushSubscription(id);
  assert.ok(!(await bob.api.GET('/v1/me/push-subscriptions')).data?.items.some((s) => s.id === id));
});
