// Who this browser is in a match: the seat token it keeps for the match (a seat joined without signing in, as
// before players existed), else the signed-in player's credential (a seat bound to the player needs no token of
// its own), else nobody (a spectator).

import { gql } from './api.js';
import * as session from './session.js';
import * as store from './store.js';

/** The caller for a match: {kind: 'seat', token}, {kind: 'player'} or null. */
export function callerFor(matchId) {
  const rec = store.get(matchId) || {};
  if (rec.token) return { kind: 'seat', token: rec.token };
  if (session.signedIn()) return { kind: 'player' };
  return null;
}

/** POST a GraphQL document as the caller (a player's access token is refreshed as needed). */
export function gqlAs(caller, query, variables = {}) {
  if (caller && caller.kind === 'player') return session.call(query, variables);
  return gql(query, variables, caller ? caller.token : null);
}

/** The bearer token to send for the caller now (for a subscription's connection), or null; refused: the token the
 * server refused on the last connection (a player's is renewed then). */
export async function tokenOf(caller, refused = null) {
  if (!caller) return null;
  return caller.kind === 'player' ? session.fresh(refused) : caller.token;
}
