// What this browser remembers per match: the host token (from createMatch) and the seat token (from
// joinMatch). Tokens stay in localStorage and in Authorization headers, never in a URL.

const KEY = 'firebreak.matches';
const NAME_KEY = 'firebreak.name';
const KEEP = 20;

function readAll() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || '{}');
    return data && typeof data === 'object' ? data : {};
  } catch {
    return {};
  }
}

function writeAll(data) {
  const ids = Object.keys(data).sort((a, b) => (data[b].at || 0) - (data[a].at || 0)).slice(0, KEEP);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(ids.map((id) => [id, data[id]]))));
}

/** This browser's record of a match: {hostToken?, token?, seat?, name?, at} or null. */
export function get(matchId) {
  return readAll()[matchId] || null;
}

/** Merge fields into a match's record. */
export function remember(matchId, fields) {
  const data = readAll();
  data[matchId] = { ...(data[matchId] || {}), ...fields, at: Date.now() };
  writeAll(data);
}

/** Drop a match, or only some fields of it. */
export function forget(matchId, fields = null) {
  const data = readAll();
  if (!data[matchId]) return;
  if (fields === null) delete data[matchId];
  else for (const f of fields) delete data[matchId][f];
  writeAll(data);
}

/** Ids of the matches this browser created or joined, newest first. */
export function ids() {
  const data = readAll();
  return Object.keys(data).sort((a, b) => (data[b].at || 0) - (data[a].at || 0));
}

/** The token to act with (a seat's), else the host token (it may add bots), else null. */
export function authToken(matchId) {
  const rec = get(matchId);
  return rec ? rec.token || rec.hostToken || null : null;
}

/** The name this browser plays under. */
export function playerName() {
  return localStorage.getItem(NAME_KEY) || '';
}

/** Remember the name this browser plays under. */
export function setPlayerName(name) {
  localStorage.setItem(NAME_KEY, name);
}
