// A complete Firebreak bot in JavaScript (Node 20+): the TypeScript SDK (@firebreak/client, clients/typescript)
// for reads and actions, graphql-ws for the steps.
//
//   npm ci
//   node bot.mjs --url http://127.0.0.1:8000 --create greatfire --seats 3 --bots random,greedy
//   node bot.mjs --url http://127.0.0.1:8000 --match ID --token TOKEN      (a seat you already hold)
//
// It reads the match once, subscribes from that version, and acts whenever a step's `match` (its own view, sent
// with the newest step) has its seat in `toAct`. The SDK gives each action an idempotency key and retries a lost
// answer with it, so a timeout never plays a move twice, and answers a refusal as a typed result. graphql-ws's own
// retry would resubscribe from the first afterVersion and replay the match, so it is off (retryAttempts: 0): after
// a disconnect this loop resubscribes from the last version seen and skips steps already seen. It plays a random
// legal action: replace choose() with your strategy. It never prints its token.
import { parseArgs } from 'node:util';
import { Firebreak } from '@firebreak/client';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** @typedef {import('@firebreak/client').Match} Match */
/** @typedef {Pick<Match, 'version' | 'status' | 'you' | 'toAct' | 'legalActions'>} Seen  what a step's match holds */

const SUBSCRIBE = `subscription($id: ID!, $after: Int!) { matchEvents(matchId: $id, afterVersion: $after) {
  version match { version status you toAct legalActions } } }`;

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One seat of one match, played to the end. */
class Bot {
  /** @param {string} url @param {string} matchId @param {string} token */
  constructor(url, matchId, token) {
    this.url = url.replace(/\/$/, '');
    this.matchId = matchId;
    this.token = token;
    this.api = new Firebreak({ baseUrl: this.url, token });
    this.seen = 0; // the last version seen: the resume point
    this.actions = 0;
  }

  /** The strategy: any of the listed actions, sent back unchanged. @param {Seen} match */
  choose(match) {
    return match.legalActions[Math.floor(Math.random() * match.legalActions.length)];
  }

  /** Act if this seat owes a decision; return true once the match is over. @param {Seen} match */
  async consider(match) {
    if (match.status === 'OVER') return true;
    if (match.you === null || !match.toAct.includes(match.you) || match.legalActions.length === 0) return false;
    const result = await this.api.act(this.matchId, this.choose(match), match.version);
    switch (result.code) {
      case 'ACCEPTED':
        this.actions += 1;
        break;
      case 'STALE_VERSION': // a newer step is on its way
      case 'NOT_YOUR_TURN':
      case 'MATCH_OVER':
        break;
      default:
        throw new Error(`refused: ${result.code} ${result.problem.detail}`);
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
        console.error(`connection lost (${error instanceof Error ? error.message : String(error)}); `
          + `resuming after version ${this.seen}`);
        await sleep(1000);
      } finally {
        await client.dispose();
      }
    }
    return (await this.api.match(this.matchId)).result;
  }

  /** @param {import('graphql-ws').Client} client */
  async session(client) {
    const match = await this.api.match(this.matchId);
    if (match.version >= this.seen) {
      this.seen = match.version;
      if (await this.consider(match)) return true;
    }
    const steps = client.iterate({ query: SUBSCRIBE, variables: { id: this.matchId, after: this.seen } });
    for await (const message of steps) {
      if (message.errors) throw new Error(message.errors.map((e) => e.message).join('; '));
      const step = /** @type {{ version: number, match: Seen | null }} */ (message.data?.matchEvents);
      if (step.version <= this.seen) continue; // already seen (a replay after a resume)
      this.seen = step.version;
      if (step.match && (await this.consider(step.match))) return true;
    }
    return true; // the service completed the subscription: the match is over
  }
}

/** Create a match, take the first seat, fill the rest with bots; return [match id, seat token].
 * @param {string} url @param {string} title @param {number} seats @param {string[]} bots @param {string} name
 * @returns {Promise<[string, string]>} */
async function create(url, title, seats, bots, name) {
  const anyone = new Firebreak({ baseUrl: url });
  const created = await anyone.createMatch(/** @type {import('@firebreak/client').CreateMatch} */ ({ title, seats }));
  const joined = await anyone.joinMatch(created.matchId, { name });
  const host = new Firebreak({ baseUrl: url, token: created.hostToken ?? undefined });
  for (const level of bots) {
    await host.addBot(created.matchId, /** @type {import('@firebreak/client').BotLevel} */ (level));
  }
  return [created.matchId, joined.token];
}

const { values } = parseArgs({ options: {
  url: { type: 'string', default: 'http://127.0.0.1:8000' }, create: { type: 'string' },
  seats: { type: 'string', default: '3' }, bots: { type: 'string', default: 'random,random' },
  name: { type: 'string', default: 'node bot' }, match: { type: 'string' }, token: { type: 'string' },
} });
const url = values.url.replace(/\/$/, '');
let matchId;
let token;
if (values.create) {
  const bots = values.bots.split(',').filter(Boolean);
  const seats = Number(values.seats);
  if (bots.length !== seats - 1) throw new Error(`--bots names ${bots.length} levels for ${seats - 1} seats`);
  [matchId, token] = await create(url, values.create, seats, bots, values.name);
  console.log(`match ${matchId}`);
} else if (values.match && values.token) {
  [matchId, token] = [values.match, values.token];
} else {
  throw new Error('give --create TITLE (with --seats and --bots) or --match and --token');
}
const bot = new Bot(url, matchId, token);
const result = await bot.play();
console.log(JSON.stringify({ match: matchId, actions: bot.actions, result }));
