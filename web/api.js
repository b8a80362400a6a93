// The public GraphQL API: queries and mutations over HTTP, match events over graphql-transport-ws.

import { t } from './i18n.js';
import { languageHeaders, languageQuery } from './language.js';

const RESULT_FIELDS = `endReason reason columns { key label description } scores { seat total parts { key value } }
  winners`;
const MATCH_FIELDS = `fragment MatchFields on Match {
  id title status version seatCount options mySeat: you toAct serviceToAct view legalActions
  result { ${RESULT_FIELDS} } rematch { id } rematchOffer { status by accepted declined expiresAt }
  clock { initialSeconds incrementSeconds seats { seat secondsLeft running takenOver } }
  seats { seat taken name kind level takenOver resigned player } }`;

const OPTION_FIELDS = 'name kind default description choices nullable minimum maximum seats';
export const TITLES = `query { titles { id name minSeats maxSeats options { ${OPTION_FIELDS} }
  botLevels { name description } } }`;
const TITLE_INFO = `query { titles { id name board botLevels { name description }
  scoreColumns { key label description } } }`;
export const LISTING = `query($status: MatchStatus!) { matches(status: $status, first: 20) {
  items { id title status version seatCount seats { seat taken name kind level player } } } }`;
export const SUMMARY = `query($id: ID!) { match(id: $id) {
  id title status version seatCount mySeat: you seats { seat taken name kind level player } } }`;
export const MATCH = `query($id: ID!) { match(id: $id) { ...MatchFields } } ${MATCH_FIELDS}`;
export const CREATE = `mutation($input: CreateMatchInput!) { createMatch(input: $input) { __typename
  ... on MatchCreated { matchId hostToken } ... on Problem { code message } } }`;
export const JOIN = `mutation($input: JoinMatchInput!) { joinMatch(input: $input) { __typename
  ... on SeatJoined { matchId seat token started } ... on Problem { code message } } }`;
export const ADD_BOT = `mutation($input: AddBotInput!) { addBot(input: $input) { __typename
  ... on BotAdded { seat level started } ... on Problem { code message } } }`;
export const ACT = `mutation($input: ActInput!) { act(input: $input) { __typename
  ... on ActionAccepted { version events match { ...MatchFields } }
  ... on StaleVersion { code message currentVersion }
  ... on Problem { code message } } } ${MATCH_FIELDS}`;
export const RESIGN = `mutation($input: ResignInput!) { resign(input: $input) { __typename
  ... on Resignation { version } ... on Problem { code message } } }`;
export const RECLAIM = `mutation($input: ReclaimSeatInput!) { reclaimSeat(input: $input) { __typename
  ... on SeatReclaimed { version } ... on Problem { code message } } }`;
const REMATCHED = '... on Rematched { matchId seat match { id } offer { status } } ... on Problem { code message }';
export const REMATCH = `mutation($input: RematchInput!) { offerRematch(input: $input) { __typename ${REMATCHED} } }`;
export const ACCEPT_REMATCH = `mutation($input: RematchInput!) { acceptRematch(input: $input) { __typename
  ${REMATCHED} } }`;
export const DECLINE_REMATCH = `mutation($input: RematchInput!) { declineRematch(input: $input) { __typename
  ${REMATCHED} } }`;
const MY_MATCH_FIELDS = `id title status version seat yourTurn lastActivity endReason winners outcome
  others { seat taken name kind level takenOver resigned }`;
export const MY_MATCHES = `query($status: MatchStatus, $first: Int!, $after: String) { me { id name
  matches(status: $status, first: $first, after: $after) { edges { cursor node { ${MY_MATCH_FIELDS} } }
  pageInfo { endCursor hasNextPage } } } }`;
export const MATCH_EVENTS = `subscription($id: ID!, $after: Int!) {
  matchEvents(matchId: $id, afterVersion: $after) { version events } }`;

/** POST a GraphQL document; return its data or throw an Error with the GraphQL or HTTP message (and its code). */
export async function gql(query, variables = {}, token = null) {
  const headers = { 'content-type': 'application/json', ...languageHeaders() };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
  const body = await response.json();
  if (body.errors && body.errors.length) {
    const error = new Error(body.errors.map((e) => e.message).join('; '));
    error.code = (body.errors[0].extensions || {}).code || null; // e.g. UNAUTHENTICATED: refresh and try again
    throw error;
  }
  return body.data;
}

let titleInfo = null;

/** A title's {id, name, board (null for a title without one), botLevels, scoreColumns} (read once per page load). */
export async function loadTitle(titleId) {
  if (!titleInfo) titleInfo = gql(TITLE_INFO).then((data) => new Map(data.titles.map((t) => [t.id, t])));
  let titles;
  try {
    titles = await titleInfo;
  } catch (error) {
    titleInfo = null;
    throw error;
  }
  const title = titles.get(titleId);
  if (!title) throw new Error(t('unknown title {id}', { id: titleId }));
  return title;
}

/**
 * One GraphQL subscription over graphql-transport-ws that reconnects by itself.
 * variables() is called on every (re)connect, so it can resume after the last version seen. When the server
 * ends the stream (complete) or fails it (error), resume() says whether to subscribe again. A stream the server
 * ended with UNAUTHENTICATED (the access token expired, or was refused) reconnects at once with a fresh token:
 * token(refused) is given the token it refused, so a player's session is renewed first (session.fresh).
 */
export class Subscription {
  constructor({ query, variables, token, onNext, onError, onComplete, resume }) {
    // token: the bearer token, or an async function giving the one to send on each (re)connect (given the token
    // the server refused on the last connection, if it did)
    Object.assign(this, { query, variables, token, onNext, onError, onComplete });
    this.resume = resume || (() => false);
    this.failures = 0;
    this.closed = false;
    this.done = false;
    this.retry = 500;
    this.ws = null;
    this.timer = null;
    this.sent = null; // the token sent on the current connection
    this.refused = null; // the token the server refused (UNAUTHENTICATED): the next connection renews it
  }

  /** Whether the server's errors say the connection's credential no longer holds (expired, revoked). */
  unauthenticated(errors) {
    const list = Array.isArray(errors) ? errors : [errors];
    return list.some((e) => e && e.extensions && e.extensions.code === 'UNAUTHENTICATED');
  }

  /** Connect (again) and subscribe. */
  start() {
    if (this.closed || this.done) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql${languageQuery()}`;
    const ws = new WebSocket(url, 'graphql-transport-ws');
    this.ws = ws;
    const send = (message) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(message));
    ws.onopen = async () => {
      let token = this.token;
      const refused = this.refused;
      this.refused = null;
      try {
        if (typeof token === 'function') token = await token(refused);
      } catch {
        token = null;
      }
      this.sent = token;
      send({ type: 'connection_init', payload: token ? { authorization: `Bearer ${token}` } : {} });
    };
    ws.onmessage = (message) => {
      let msg;
      try {
        msg = JSON.parse(message.data);
      } catch {
        return;
      }
      switch (msg.type) {
        case 'connection_ack':
          this.retry = 500;
          this.since = Date.now();
          send({ id: '1', type: 'subscribe', payload: { query: this.query, variables: this.variables() } });
          break;
        case 'next':
          if (msg.payload && msg.payload.errors) {
            if (this.unauthenticated(msg.payload.errors)) this.refused = this.sent;
            this.failures += 1;
            if (this.onError) this.onError(msg.payload.errors, this.failures);
          } else if (msg.payload && msg.payload.data) {
            this.failures = 0;
            this.onNext(msg.payload.data);
          }
          break;
        case 'error':
          if (this.unauthenticated(msg.payload)) this.refused = this.sent;
          this.failures += 1;
          if (this.onError) this.onError(msg.payload, this.failures);
          this.ended(ws);
          break;
        case 'complete':
          this.ended(ws);
          break;
        case 'ping':
          send({ type: 'pong' });
          break;
        default:
          break;
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed || this.done) return;
      this.timer = setTimeout(() => this.start(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  /** The server ended the stream: resubscribe (on a new connection) if still wanted, else stop. */
  ended(ws) {
    if (this.ws !== ws) return;
    this.ws = null;
    ws.close(1000);
    if (this.closed) return;
    // a long-lived stream, or one whose token expired (renewed on reconnecting): resume at once
    if ((this.since && Date.now() - this.since > 2000) || this.refused) this.failures = 0;
    if (this.resume()) {
      this.timer = setTimeout(() => this.start(), this.failures ? this.retry : 100);
      if (this.failures) this.retry = Math.min(this.retry * 2, 8000);
    } else {
      this.done = true;
      if (this.onComplete) this.onComplete();
    }
  }

  /** Stop for good: unsubscribe and close the connection. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws && this.ws.readyState <= WebSocket.OPEN) {
      if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ id: '1', type: 'complete' }));
      this.ws.close(1000);
    }
  }
}
