// Sign-in and refresh against the live service: one refresh for many callers, and a refused access token renewed.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { Firebreak, FirebreakError, memoryStore } from '../dist/index.js';

const BASE = process.env.FIREBREAK_URL;

/** A client whose requests to the refresh route are counted. */
function counting() {
  const counts = { refresh: 0 };
  const fb = new Firebreak({ baseUrl: BASE, fetch: (request) => {
    if (new URL(request.url).pathname === '/v1/auth/refresh') counts.refresh += 1;
    return fetch(request);
  } });
  return { fb, counts };
}

test('the same device signs the same guest in again', async () => {
  const device = randomUUID();
  const one = await new Firebreak({ baseUrl: BASE }).signInAsGuest('cy', device);
  const two = await new Firebreak({ baseUrl: BASE }).signInAsGuest('cy', device);
  assert.equal(one.player.id, two.player.id);
});

test('concurrent refreshes are one request, and the session works after', async () => {
  const { fb, counts } = counting();
  const first = await fb.signInAsGuest('dee', randomUUID());
  const sessions = await Promise.all([fb.refresh(), fb.refresh(), fb.refresh()]);
  assert.equal(counts.refresh, 1);
  assert.equal(new Set(sessions.map((s) => s.refreshToken)).size, 1);
  assert.notEqual(sessions[0].refreshToken, first.refreshToken);
  assert.equal((await fb.me()).id, first.player.id);
});

test('a refused access token is renewed once and the call retried', async () => {
  const { fb, counts } = counting();
  const session = await fb.signInAsGuest('eve', randomUUID());
  await fb.store.set({ ...session, accessToken: `${session.accessToken}x` }); // as if it had expired
  assert.equal((await fb.me()).id, session.player.id);
  assert.equal(counts.refresh, 1);
});

test('an access token about to expire is renewed before the call', async () => {
  const { fb, counts } = counting();
  const session = await fb.signInAsGuest('fay', randomUUID());
  await fb.store.set({ ...session, renewAt: Date.now() - 1 });
  assert.equal((await fb.me()).id, session.player.id);
  assert.equal(counts.refresh, 1);
});

test('after sign-out the session is gone and the old token is refused', async () => {
  const store = memoryStore();
  const fb = new Firebreak({ baseUrl: BASE, store });
  const session = await fb.signInAsGuest('gus', randomUUID());
  await fb.signOut();
  assert.equal(await store.get(), null);
  const old = new Firebreak({ baseUrl: BASE, token: session.accessToken });
  await assert.rejects(old.me(), (error) => error instanceof FirebreakError && error.status === 401
    && error.code === 'UNAUTHENTICATED');
});

test('two tabs sharing a session refresh at once: both stay signed in (the service\'s reuse grace)', async () => {
  const store = memoryStore();
  const counted = [];
  const tab = () => new Firebreak({ baseUrl: BASE, store, fetch: (request) => {
    if (new URL(request.url).pathname === '/v1/auth/refresh') counted.push(request.url);
    return fetch(request);
  } });
  const [one, two] = [tab(), tab()];
  const first = await one.signInAsGuest('hal', randomUUID());
  const [a, b] = await Promise.all([one.refresh(), two.refresh()]);
  assert.equal(counted.length, 2); // no Web Locks in Node: each tab spent the same refresh token
  assert.equal(a.refreshToken, b.refreshToken, 'the reuse within the grace answered the same successor');
  assert.equal((await one.me()).id, first.player.id);
  assert.equal((await two.refresh()).player.id, first.player.id); // the family was not revoked
});
