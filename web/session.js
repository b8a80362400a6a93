// The signed-in player: a guest session (signInAsGuest) kept in localStorage with the device id it was made
// for. The access token is swapped for a new one (refreshSession) before it expires, and once more when the
// service answers UNAUTHENTICATED; a refresh token works once, so browser tabs refresh one at a time (Web Locks)
// and a tab takes the pair another tab already got. Credentials stay in localStorage and Authorization headers.

import { gql } from './api.js';
import { randomKey } from './dom.js';

const DEVICE_KEY = 'firebreak.device';
const SESSION_KEY = 'firebreak.session';
const EARLY_MS = 60_000; // refresh this long before the access token expires (or at half its life, if sooner)

const PLAYER_FIELDS = 'id name handle kind';
const SESSION_FIELDS = `accessToken accessTokenExpiresIn refreshToken player { ${PLAYER_FIELDS} }`;
const SIGN_IN = `mutation($input: SignInAsGuestInput!) { signInAsGuest(input: $input) { __typename
  ... on Session { ${SESSION_FIELDS} } ... on Problem { code message } } }`;
const REFRESH = `mutation($input: RefreshSessionInput!) { refreshSession(input: $input) { __typename
  ... on Session { ${SESSION_FIELDS} } ... on Unauthenticated { code message reason } } }`;
const SIGN_OUT = `mutation { signOut { __typename ... on Problem { code message } } }`;
const UPDATE_PROFILE = `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename
  ... on ProfileUpdated { player { ${PLAYER_FIELDS} } } ... on BadHandle { reason } ... on Problem { code message } } }`;
const ME = `{ me { ${PLAYER_FIELDS} } }`;
const EXPORT = `{ me { export { __typename ... on DataExport { url } ... on Problem { code message } } } }`;
const DELETE_ACCOUNT = `mutation { deleteAccount { __typename ... on AccountDeleted { deletedAt }
  ... on Problem { code message } } }`;

const listeners = new Set();
let refreshing = null; // the refresh in flight in this tab
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

function changed() {
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

function keep(answer) {
  const lifeMs = answer.accessTokenExpiresIn * 1000;
  write({ accessToken: answer.accessToken, refreshToken: answer.refreshToken, player: answer.player,
    refreshAt: Date.now() + Math.max(0, Math.min(lifeMs - EARLY_MS, lifeMs / 2)) });
}

/** Refresh before the access token is due, so even a page that only listens keeps a fresh token. */
function schedule() {
  clearTimeout(timer);
  const session = read();
  if (!session) return;
  timer = setTimeout(() => { fresh().catch(() => schedule()); }, Math.max(1000, session.refreshAt - Date.now()));
}

/** Sign this device's guest in under name; throws an Error saying why not. */
export async function signIn(name) {
  const input = { name: name.trim(), deviceId: deviceId() };
  const r = (await gql(SIGN_IN, { input })).signInAsGuest;
  if (r.__typename !== 'Session') throw new Error(r.message);
  keep(r);
  changed();
  return r.player;
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
  if (!me) throw new Error('not signed in');
  let r = (await call(DELETE_ACCOUNT)).deleteAccount;
  if (r.__typename === 'Reauthenticate') {
    const again = (await gql(SIGN_IN, { input: { name: me.name, deviceId: deviceId() } })).signInAsGuest;
    if (again.__typename !== 'Session' || again.player.id !== me.id) throw new Error('could not sign in again');
    keep(again);
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

/** Swap the refresh token for a new pair, one tab at a time; stale: the access token the caller found refused. */
async function swap(stale) {
  const run = async () => {
    const session = read();
    if (!session) return null;
    // Another tab (or an earlier call) already swapped: use its pair.
    if (session.accessToken !== stale && Date.now() < session.refreshAt) return session.accessToken;
    let r;
    try {
      r = (await gql(REFRESH, { input: { refreshToken: session.refreshToken } })).refreshSession;
    } catch (error) {
      return session.accessToken; // the service is out of reach: keep the session, try again later
    }
    if (r.__typename !== 'Session') { // used, expired or signed out elsewhere: this session is over
      write(null);
      changed();
      return null;
    }
    keep(r);
    schedule();
    return r.accessToken;
  };
  if (navigator.locks) return navigator.locks.request('firebreak.refresh', run);
  return run();
}

/** The access token to send now (refreshed first when it is due), or null when nobody is signed in. */
export async function fresh(stale = null) {
  const session = read();
  if (!session) return null;
  if (!stale && Date.now() < session.refreshAt) return session.accessToken;
  if (!refreshing) refreshing = swap(stale || session.accessToken).finally(() => { refreshing = null; });
  return refreshing;
}

function refused(error, data) {
  if (error) return error.code === 'UNAUTHENTICATED';
  return Object.values(data || {}).some((v) => v && (v.__typename === 'Unauthenticated' || v.code === 'UNAUTHENTICATED'));
}

/** POST a GraphQL document with the player's access token; on UNAUTHENTICATED refresh it and try once more. */
export async function call(query, variables = {}) {
  for (let attempt = 0; ; attempt++) {
    const token = await fresh();
    if (!token) throw new Error('not signed in');
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

schedule();
