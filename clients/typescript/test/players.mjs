// A player for the tests: a signed-in client following its own events, acting whenever a match waits on it.
import { randomUUID } from 'node:crypto';
import { Firebreak } from '../dist/index.js';

export const BASE = process.env.FIREBREAK_URL;

export class Player {
  constructor(name, options = {}) {
    this.name = name;
    this.fb = new Firebreak({ baseUrl: BASE, ...options });
    this.seen = []; // every event received, in order
    this.waiters = [];
    this.queue = Promise.resolve(); // one drive at a time
    this.acted = 0;
    this.playing = new Set(); // the matches this player plays when told it is their turn
    this.stop = new AbortController();
  }

  async signIn() {
    await this.fb.signInAsGuest(this.name, randomUUID());
    return this;
  }

  /** Follow the events; resolves once the stream is open (no event is missed after). */
  follow() {
    return new Promise((opened, failed) => {
      this.following = (async () => {
        for await (const event of this.fb.events({ signal: this.stop.signal, onOpen: () => opened() })) {
          this.seen.push(event);
          if ('matchId' in event && this.playing.has(event.matchId)) this.drive(event.matchId);
          for (const waiter of [...this.waiters]) {
            if (waiter.wanted(event)) {
              this.waiters.splice(this.waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            }
          }
        }
      })().catch(failed);
    });
  }

  /** The first event (already seen or to come) that satisfies `wanted`. */
  next(wanted) {
    const had = this.seen.find(wanted);
    if (had) return Promise.resolve(had);
    return new Promise((resolve) => this.waiters.push({ wanted, resolve }));
  }

  /** Act with random legal actions read from the API while the match waits on this player. */
  drive(matchId) {
    this.playing.add(matchId);
    this.queue = this.queue.then(async () => {
      for (;;) {
        const match = await this.fb.match(matchId);
        if (match.status !== 'ACTIVE' || match.legalActions.length === 0) return;
        const action = match.legalActions[Math.floor(Math.random() * match.legalActions.length)];
        const result = await this.fb.act(matchId, action, match.version);
        switch (result.code) {
          case 'ACCEPTED':
            this.acted += 1;
            break;
          case 'STALE_VERSION':
            break; // read again
          default:
            throw new Error(`${this.name}: ${result.code} ${result.problem.detail}`);
        }
      }
    });
    this.queue.catch((error) => this.stop.abort(error));
    return this.queue;
  }

  /** Resolves with the match once it is over (its matchEnded event). */
  async finished(matchId) {
    await this.next((e) => e.type === 'matchEnded' && e.matchId === matchId);
    return this.fb.match(matchId);
  }

  async close() {
    this.stop.abort();
    await this.following?.catch(() => undefined);
  }
}
