// The signed-in player: a guest session kept in localStorage with the device id it was made for, through the
// TypeScript SDK (web/vendor/firebreak-client/, built by `npm run vendor` in clients/typescript): its client signs in
// (POST /v1/auth/guest) and renews the access token (POST /v1/auth/refresh) before it expires and once more when
// the service refuses it. A refresh token works once, so the SDK makes browser tabs refresh one at a time (Web
// Locks) and a tab that waited takes the pair another tab already stored; the service's reuse grace covers a tab
// whose localStorage has not caught up yet. The rest of the page's calls are GraphQL (call() below) with the
// session's access token. Credentials stay in localStorage and Authorization headers, never in a URL.

import { gql } from './api.js';
import { randomKey } from './dom.js';
import { t } from './i18n.js';
import { languageHeaders } from './language.js';
import { Firebreak, localStorageStore } from './vendor/firebreak-client/index.js';

const DEVICE_KEY = 'firebreak.device';
const SESSION_KEY = 'firebreak.session';

const PLAYER_FIELDS = 'id name handle kind';
const SIGN_OUT = `mutation { signOut { __typename ... on Problem { code message } } }`;
const UPDATE_PROFILE = `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename
  ... on ProfileUpdated { player { ${PLAYER_FIELDS} } } ... on BadHandle { reason } ... on Problem { code message } } }`;
const ME = `{ me { ${PLAYER_FIELDS} } }`;
const EXPORT = `{ me { export { __typename ... on DataExport { url } ... on Problem { code message } } } }`;
const DELETE_ACCOUNT = `mutation { deleteAccount { __typename ... on AccountDeleted { deletedAt }
  ... on Problem { code message } } }`;

/** The SDK's client for this origin, keeping its session where this page always has (localStorage). Its requests
 * speak the reader's language (the picker's choice is read on each request). */
export const client = new Firebreak({
  baseUrl: location.origin,
  store: localStorageStore(SESSION_KEY),
  fetch: (request) => {
    for (const [name, value] of Object.entries(languageHeaders())) {
      if (!request.headers.has(name)) request.headers.set(name, value);
    }
    return fetch(request);
  },
});

const listeners = new Set();
let timer = null;

function read() {
  try {
    const data = JSON.parse(localStorage.getItem(SESSION_KEY) || 'null');
    return data && data.accessToken && data.refreshToken && data.player ? data : null;
  } catch {
    return null;
  }
}

function write(session) {
  if (session) localStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else localStorage.removeItem(SESSION_KEY);
}

/** This device's id: made once, kept (the same id signs the same guest in again). */
export function deviceId() {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id || id.length < 16) {
    id = randomKey() + randomKey();
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/** The signed-in player {id, name, handle, kind}, or null. */
export function player() {
  const session = read();
  return session ? session.player : null;
}

/** Whether a player is signed in on this browser. */
export function signedIn() {
  return read() !== null;
}

/** Call fn() whenever a player signs in or out (in this tab or another); returns a function that stops it. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

let announced; // the player the listeners were last told of (set below, once read() is defined)

function changed() {
  announced = (player() || {}).id || null;
  schedule();
  for (const fn of [...listeners]) fn(player());
}

window.addEventListener('storage', (event) => {
  if (event.key !== SESSION_KEY) return;
  const who = (text) => {
    try {
      return ((JSON.parse(text || 'null') || {}).player || {}).id || null;
    } catch {
      return null;
    }
  };
  const before = who(event.oldValue);
  const after = who(event.newValue);
  if (before !== after) changed();
  else schedule();
});

/** When the kept session's access token is due for renewal (ms since the epoch): the SDK's renewAt (a session kept
 * by an earlier version of this page has none: due now). */
function dueAt(session) {
  if (typeof session.renewAt === 'number') return session.renewAt;
  return typeof session.accessExpiresAt === 'number' ? session.accessExpiresAt - 30_000 : 0;
}

/** Renew before the access token is due, so even a page that only listens keeps a fresh token. */
function schedule() {
  clearTimeout(timer);
  const session = read();
  if (!session) return;
  timer = setTimeout(() => { fresh().finally(schedule); }, Math.max(1000, dueAt(session) - Date.now()));
}

/** The SDK ended the session (a refresh refused: used, expired or signed out elsewhere): tell the page. */
export function lost() {
  if (!read() && announced !== null) changed();
}

/** Sign this device's guest in under name; throws an Error saying why not. */
export async function signIn(name) {
  let kept;
  try {
    kept = await client.signInAsGuest(name.trim(), deviceId());
  } catch (error) {
    throw new Error((error.problem && error.problem.detail) || error.message);
  }
  changed();
  return kept.player;
}

/** Sign out: end the session at the service (best effort) and forget it here. */
export async function signOut() {
  if (!read()) return;
  try {
    await call(SIGN_OUT);
  } catch (error) {
    console.warn('sign out:', error.message); // eslint-disable-line no-console
  }
  write(null);
  changed();
}

function keepPlayer(fresh) {
  const session = read();
  if (!session || session.player.id !== fresh.id) return;
  write({ ...session, player: fresh });
  changed();
}

/** Change the player's handle and/or display name (null: leave it); throws an Error saying why not (its code:
 * BAD_HANDLE with reason, HANDLE_TAKEN, BAD_NAME, RATE_LIMITED). */
export async function updateProfile(handle, name) {
  const input = {};
  if (handle !== null) input.handle = handle;
  if (name !== null) input.name = name;
  const r = (await call(UPDATE_PROFILE, { input })).updateProfile;
  if (r.__typename !== 'ProfileUpdated') {
    const error = new Error(r.message);
    error.code = r.code;
    throw error;
  }
  keepPlayer(r.player);
  return r.player;
}

/** A one-time URL of everything kept about the player (GET /v1/me/export with a ticket: one download, within two
 * minutes); throws an Error with the refusal's code. */
export async function exportUrl() {
  const r = (await call(EXPORT)).me.export;
  if (r.__typename !== 'DataExport') {
    const error = new Error(r.message);
    error.code = r.code;
    throw error;
  }
  return r.url;
}

/** Delete the player's account for good. The service asks for a recent sign-in (REAUTHENTICATE): this guest then
 * signs in again with its device (a new session) and asks once more. Afterwards this browser forgets the session
 * and the device id, so the next sign-in is a new guest. Throws an Error with the refusal's code. */
export async function deleteAccount() {
  const me = player();
  if (!me) throw new Error(t('not signed in'));
  let r = (await call(DELETE_ACCOUNT)).deleteAccount;
  if (r.__typename === 'Reauthenticate') {
    const again = await client.signInAsGuest(me.name, deviceId()).catch(() => null);
    if (!again || again.player.id !== me.id) throw new Error(t('could not sign in again'));
    r = (await call(DELETE_ACCOUNT)).deleteAccount;
  }
  if (r.__typename !== 'AccountDeleted') {
    const error = new Error(r.message);
    error.code = r.code;
    throw error;
  }
  write(null);
  localStorage.removeItem(DEVICE_KEY);
  changed();
  return r.deletedAt;
}

/** Read the player afresh (a session kept from before handles has none yet). */
export async function reloadPlayer() {
  const me = (await call(ME)).me;
  if (me) keepPlayer(me);
}

/** Renew the session (the SDK: one tab at a time) unless it was renewed since `seen` (the refresh token kept when
 * the refused token was sent); the access token to send now, or null when the session is over. */
async function renew(seen) {
  try {
    await client.renewAfterExpiry(seen);
  } catch {
    // refused: the SDK forgot the session (lost() below says so); out of reach: keep it and try again later
  }
  const session = read();
  if (!session) {
    lost();
    return null;
  }
  schedule();
  return session.accessToken;
}

/** The access token to send now (renewed first when it is due), or null when nobody is signed in. stale: the
 * access token the caller found refused (renewed, unless another tab or call has already done so). */
export async function fresh(stale = null) {
  const session = read();
  if (!session) return null;
  if (stale) return stale === session.accessToken ? renew(session.refreshToken) : session.accessToken;
  if (Date.now() >= dueAt(session)) return renew(session.refreshToken);
  return session.accessToken;
}

function refused(error, data) {
  if (error) return error.code === 'UNAUTHENTICATED';
  return Object.values(data || {}).some((v) => v && (v.__typename === 'Unauthenticated' || v.code === 'UNAUTHENTICATED'));
}

/** POST a GraphQL document with the player's access token; on UNAUTHENTICATED refresh it and try once more. */
export async function call(query, variables = {}) {
  for (let attempt = 0; ; attempt++) {
    const token = await fresh();
    if (!token) throw new Error(t('not signed in'));
    let data = null;
    let failure = null;
    try {
      data = await gql(query, variables, token);
    } catch (error) {
      failure = error;
    }
    if (attempt === 0 && refused(failure, data) && (await fresh(token))) continue;
    if (failure) throw failure;
    return data;
  }
}

announced = (player() || {}).id || null;
schedule();
