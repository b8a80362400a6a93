// A complete Firebreak bot in JavaScript (Node 18+): fetch for reads and actions, graphql-ws for the steps.
//
//   npm ci
//   node bot.mjs --url http://127.0.0.1:8000 --create greatfire --seats 3 --bots random,greedy
//   node bot.mjs --url http://127.0.0.1:8000 --match ID --token TOKEN      (a seat you already hold)
//
// It reads the match once, subscribes from that version, and acts whenever a step's `match` (its own view, sent
// with the newest step) has its seat in `toAct`. Each intended action gets an idempotency key, reused on retry,
// so a timeout never plays a move twice. graphql-ws's own retry would resubscribe from the first afterVersion and
// replay the match, so it is off (retryAttempts: 0): after a disconnect this loop resubscribes from the last
// version seen and skips steps already seen. It plays a random legal action: replace choose() with your strategy.
// It never prints its token.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const MATCH_FIELDS = 'version status you toAct legalActions view';
const READ = `query($id: ID!) { match(id: $id) { ${MATCH_FIELDS} } }`;
const SUBSCRIBE = `subscription($id: ID!, $after: Int!) { matchEvents(matchId: $id, afterVersion: $after) {
  version events match { ${MATCH_FIELDS} } } }`;
const ACT = `mutation($input: ActInput!) { act(input: $input) { __typename
  ... on ActionAccepted { version } ... on StaleVersion { currentVersion } ... on Problem { code message } } }`;
const RESULT = 'query($id: ID!) { match(id: $id) { result { endReason reason winners scores { seat total } } } }';
const CREATE = `mutation($input: CreateMatchInput!) { createMatch(input: $input) {
  ... on MatchCreated { matchId hostToken } ... on Problem { code message } } }`;
const JOIN = `mutation($input: JoinMatchInput!) { joinMatch(input: $input) {
  ... on SeatJoined { seat token } ... on Problem { code message } } }`;
const ADD_BOT = `mutation($input: AddBotInput!) { addBot(input: $input) {
  ... on BotAdded { seat started } ... on Problem { code message } } }`;
const RETRIES = 5;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST a GraphQL document; retry network failures, 429 and 503 with a pause; throw on GraphQL errors. */
async function gql(url, query, variables, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  for (let attempt = 1; attempt <= RETRIES; attempt++) {
    let response;
    try {
      response = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    } catch {
      await sleep(500 * attempt);
      continue;
    }
    if (response.status === 429 || response.status === 503) {
      await sleep(1000 * Number(response.headers.get('retry-after') || 1));
      continue;
    }
    const body = await response.json();
    if (body.errors && body.errors.length) throw new Error(body.errors.map((e) => e.message).join('; '));
    return body.data;
  }
  throw new Error(`the service did not answer after ${RETRIES} tries`);
}

/** One seat of one match, played to the end. */
class Bot {
  constructor(url, matchId, token) {
    this.url = url.replace(/\/$/, '');
    this.matchId = matchId;
    this.token = token;
    this.seen = 0; // the last version seen: the resume point
    this.actions = 0;
  }

  /** The strategy: any of the listed actions, sent back unchanged. */
  choose(match) {
    return match.legalActions[Math.floor(Math.random() * match.legalActions.length)];
  }

  /** Act if this seat owes a decision; return true once the match is over. */
  async consider(match) {
    if (match.status === 'OVER') return true;
    if (!match.toAct.includes(match.you) || match.legalActions.length === 0) return false;
    const input = { matchId: this.matchId, action: this.choose(match), expectedVersion: match.version,
      idempotencyKey: randomUUID() };
    const answer = (await gql(this.url, ACT, { input }, this.token)).act;
    if (answer.__typename === 'ActionAccepted') this.actions += 1;
    else if (!['StaleVersion', 'NotYourTurn', 'MatchOver'].includes(answer.__typename)) {
      throw new Error(`refused: ${answer.code} ${answer.message}`);
    }
    return false; // the step (ours or a newer one) arrives on the subscription
  }

  /** Play to the end, resubscribing after any disconnect; return the result. */
  async play() {
    let over = false;
    while (!over) {
      const client = createClient({
        url: `ws${this.url.slice('http'.length)}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${this.token}` },
      });
      try {
        over = await this.session(client);
      } catch (error) {
        console.error(`connection lost (${error.message || error}); resuming after version ${this.seen}`);
        await sleep(1000);
      } finally {
        await client.dispose();
      }
    }
    return (await gql(this.url, RESULT, { id: this.matchId }, this.token)).match.result;
  }

  async session(client) {
    const match = (await gql(this.url, READ, { id: this.matchId }, this.token)).match;
    if (!match) throw new Error('no such match');
    if (match.version >= this.seen) {
      this.seen = match.version;
      if (await this.consider(match)) return true;
    }
    const steps = client.iterate({ query: SUBSCRIBE, variables: { id: this.matchId, after: this.seen } });
    for await (const message of steps) {
      if (message.errors) throw new Error(message.errors.map((e) => e.message).join('; '));
      const step = message.data.matchEvents;
      if (step.version <= this.seen) continue; // already seen (a replay after a resume)
      this.seen = step.version;
      if (step.match && (await this.consider(step.match))) return true;
    }
    return true; // the service completed the subscription: the match is over
  }
}

/** Create a match, take the first seat, fill the rest with bots; return [match id, seat token]. */
async function create(url, title, seats, bots, name) {
  const created = (await gql(url, CREATE, { input: { title, seats } })).createMatch;
  if (!created.matchId) throw new Error(`${created.code}: ${created.message}`);
  const joined = (await gql(url, JOIN, { input: { matchId: created.matchId, name } })).joinMatch;
  if (!joined.token) throw new Error(`${joined.code}: ${joined.message}`);
  for (const level of bots) {
    const added = (await gql(url, ADD_BOT, { input: { matchId: created.matchId, level } }, created.hostToken)).addBot;
    if (added.seat === undefined) throw new Error(`${added.code}: ${added.message}`);
  }
  return [created.matchId, joined.token];
}

const { values } = parseArgs({ options: {
  url: { type: 'string', default: 'http://127.0.0.1:8000' }, create: { type: 'string' },
  seats: { type: 'string', default: '3' }, bots: { type: 'string', default: 'random,random' },
  name: { type: 'string', default: 'node bot' }, match: { type: 'string' }, token: { type: 'string' },
} });
let matchId;
let token;
if (values.create) {
  const bots = values.bots.split(',').filter(Boolean);
  if (bots.length !== Number(values.seats) - 1) throw new Error(`--bots names ${bots.length} levels for ${values.seats - 1} seats`);
  [matchId, token] = await create(values.url.replace(/\/$/, ''), values.create, Number(values.seats), bots, values.name);
  console.log(`match ${matchId}`);
} else if (values.match && values.token) {
  [matchId, token] = [values.match, values.token];
} else {
  throw new Error('give --create TITLE (with --seats and --bots) or --match and --token');
}
const bot = new Bot(values.url, matchId, token);
const result = await bot.play();
console.log(JSON.stringify({ match: matchId, actions: bot.actions, result }));
