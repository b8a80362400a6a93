// The load for bench/peer_bgio: M concurrent tic-tac-toe matches played for S seconds against one server, either
// boardgame.io's (lobby REST API to create and join, its own client over socket.io to move) or Firebreak's (REST
// /v1 to create, join and move, keep-alive fetch). Each match plays random legal moves to the end, then a new one
// starts in its slot. The driver holds both seats of every match.
//
// Round trip of a move: boardgame.io, from the move sent to the state update that includes it arriving on the
// mover's socket (the server's, not the client's optimistic local one); Firebreak, from the request to its answer.
// A move counts when its round trip starts and ends inside the window (after the warm-up). Prints "window open"
// and "window closed" lines as the window opens and closes (the launcher reads server CPU then), then one JSON
// line: {target, matches, seconds, moves, movesPerSecond, p50Ms, p99Ms, matchesFinished, errors}.
//
// Usage: node driver.mjs --target bgio|firebreak --url http://127.0.0.1:PORT [--matches 50] [--seconds 10]
//                        [--warmup 2] [--seed 1]
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { TicTacToe } from './game.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');

const TITLE = 'tictactoe';
const MAX_ERRORS_IN_A_ROW = 20;
const DRAIN_MS = 10_000;

const { values: args } = parseArgs({
  options: {
    target: { type: 'string' },
    url: { type: 'string' },
    matches: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    seed: { type: 'string', default: '1' },
  },
});
if (!['bgio', 'firebreak'].includes(args.target) || !args.url) {
  console.error('usage: node driver.mjs --target bgio|firebreak --url http://127.0.0.1:PORT [--matches 50] '
    + '[--seconds 10] [--warmup 2] [--seed 1]');
  process.exit(2);
}
const base = args.url.replace(/\/$/, '');
const slots = Number(args.matches);
const seconds = Number(args.seconds);
const warmup = Number(args.warmup);

/** A small seeded generator (mulberry32), one per slot, so runs draw the same moves. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomEmptyCell(cells, random) {
  const empty = [];
  cells.forEach((owner, k) => { if (owner === null) empty.push(k); });
  return empty[Math.floor(random() * empty.length)];
}

const tally = { open: Infinity, close: Infinity, latencies: [], finished: 0, errors: 0, stopping: false };

function record(started, ended) {
  if (started >= tally.open && ended <= tally.close) {
    tally.latencies.push(ended - started);
  }
}

async function postJson(url, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) {
    headers.authorization = `Bearer ${token}`;
  }
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`POST ${new URL(url).pathname}: HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  return JSON.parse(text);
}

async function getJson(url, token) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`GET ${new URL(url).pathname}: HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  return JSON.parse(text);
}

// ----- Firebreak ---------------------------------------------------------------------------------------------

async function firebreakMatch(random) {
  const created = await postJson(`${base}/v1/matches`, { title: TITLE, seats: 2 });
  const id = created.matchId;
  const tokens = [];
  for (const name of ['a', 'b']) {
    const joined = await postJson(`${base}/v1/matches/${id}/seats`, { name });
    tokens[joined.seat] = joined.token;
  }
  let match = await getJson(`${base}/v1/matches/${id}`, tokens[0]);
  while (match.status !== 'OVER' && !tally.stopping) {
    const seat = match.toAct[0];
    const action = { type: 'mark', cell: randomEmptyCell(match.view.cells, random) };
    const started = performance.now();
    const answer = await postJson(`${base}/v1/matches/${id}/actions`, { action, expectedVersion: match.version },
      tokens[seat]);
    record(started, performance.now());
    match = answer.match;
  }
  return match.status === 'OVER';
}

// ----- boardgame.io ------------------------------------------------------------------------------------------

/** One seat of a boardgame.io match: its client, and the last state id its socket received from the server. */
class Seat {
  constructor(matchID, playerID, credentials) {
    this.client = Client({
      game: TicTacToe, matchID, playerID, credentials, debug: false,
      multiplayer: SocketIO({ server: base, socketOpts: { transports: ['websocket'], forceNew: true } }),
    });
    this.serverStateID = -1;
    this.waiters = [];
    this.client.start();
    // Registered after the transport's own listeners, so the client's store already holds the state when these run.
    const socket = this.client.transport.socket;
    socket.on('sync', (_, info) => this.seen(info.state._stateID));
    socket.on('update', (_, state) => this.seen(state._stateID));
    socket.on('patch', (_, _prev, stateID) => this.seen(stateID));
    socket.on('connect_error', (error) => this.fail(error));
  }

  seen(stateID) {
    this.serverStateID = Math.max(this.serverStateID, stateID);
    this.waiters = this.waiters.filter(({ stateID: wanted, resolve }) => {
      if (this.serverStateID < wanted) {
        return true;
      }
      resolve();
      return false;
    });
  }

  fail(error) {
    for (const { reject } of this.waiters) {
      reject(error);
    }
    this.waiters = [];
  }

  /** Resolves once the server has sent this seat a state at least this new. */
  reached(stateID) {
    if (this.serverStateID >= stateID) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.waiters.push({ stateID, resolve, reject }));
  }
}

async function bgioMatch(random) {
  const game = `${base}/games/${TicTacToe.name}`;
  const { matchID } = await postJson(`${game}/create`, { numPlayers: 2 });
  const seats = [];
  for (const playerID of ['0', '1']) {
    const joined = await postJson(`${game}/${matchID}/join`, { playerID, playerName: `p${playerID}` });
    seats.push(new Seat(matchID, playerID, joined.playerCredentials));
  }
  try {
    await Promise.all(seats.map((seat) => seat.reached(0)));
    let state = seats[0].client.getState();
    while (!state.ctx.gameover && !tally.stopping) {
      const mover = seats[Number(state.ctx.currentPlayer)];
      const expected = state._stateID + 1;
      const cell = randomEmptyCell(state.G.cells, random);
      const started = performance.now();
      mover.client.moves.clickCell(cell);
      await mover.reached(expected);
      record(started, performance.now());
      await Promise.all(seats.map((seat) => seat.reached(expected)));
      state = mover.client.getState();
    }
    return Boolean(state.ctx.gameover);
  } finally {
    for (const seat of seats) {
      seat.client.stop();
    }
  }
}

// ----- the slots ---------------------------------------------------------------------------------------------

async function slot(index) {
  const random = generator(Number(args.seed) * 1000003 + index);
  const play = args.target === 'bgio' ? bgioMatch : firebreakMatch;
  let failures = 0;
  while (!tally.stopping) {
    try {
      if (await play(random)) {
        tally.finished += 1;
      }
      failures = 0;
    } catch (error) {
      tally.errors += 1;
      failures += 1;
      if (failures >= MAX_ERRORS_IN_A_ROW) {
        throw new Error(`slot ${index}: ${failures} failed matches in a row; the last: ${error.message}`);
      }
    }
  }
}

function percentile(sorted, p) {
  if (!sorted.length) {
    return null;
  }
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const start = performance.now();
tally.open = start + warmup * 1000;
tally.close = tally.open + seconds * 1000;
setTimeout(() => console.log('window open'), warmup * 1000);
setTimeout(() => {
  console.log('window closed');
  tally.stopping = true;
}, (warmup + seconds) * 1000);
const running = Promise.all(Array.from({ length: slots }, (_, k) => slot(k)));
let drained;
try {
  drained = await Promise.race([
    running.then(() => true),
    new Promise((resolve) => { setTimeout(() => resolve(false), (warmup + seconds) * 1000 + DRAIN_MS); }),
  ]);
} catch (error) {
  console.error(`driver: ${error.message}`);
  process.exit(1);
}
const sorted = [...tally.latencies].sort((a, b) => a - b);
console.log(JSON.stringify({
  target: args.target, matches: slots, seconds, moves: sorted.length, movesPerSecond: sorted.length / seconds,
  p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), matchesFinished: tally.finished,
  errors: tally.errors, drained,
}));
process.exit(0);
