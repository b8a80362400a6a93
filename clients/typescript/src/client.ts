// The client: openapi-fetch, typed by the service's OpenAPI document (schema.d.ts, generated), with the session's
// credential on every call, one refresh and retry when the access token has expired, and retries of 429 and 503
// after their Retry-After. The operations an app uses most have a method here; every other one is on `api`.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';
import { refusal, type ActResult } from './act.js';
import { FirebreakError, toError } from './errors.js';
import { follow, type FollowOptions, type MyEvent } from './events.js';
import { memoryStore, Refresher, renewAt, stored, type SessionStore, type StoredSession } from './session.js';

type Schemas = components['schemas'];
export type Match = Schemas['Match'];
export type MyMatch = Schemas['MyMatch'];
export type MyMatchPage = Schemas['MyMatchPage'];
export type Seek = Schemas['Seek'];
export type PlaceSeek = Schemas['PlaceSeek'];
export type CreateMatch = Schemas['CreateMatch'];
export type Rematched = Schemas['Rematched'];
export type Invitation = Schemas['Invitation'];
/** One action of a title (a union of each title's, told apart by `type` within a title). */
export type Action = Match['legalActions'][number];
/** A match's view: each title's own, told apart by `title` (narrow on it to read the title's fields). */
export type View = Match['view'];
/** One event of a step (a union of each title's, told apart by `type` within a title). */
export type GameEvent = Schemas['GameEvent'];
export type BotLevel = Schemas['AddBot']['level'];

export interface FirebreakOptions {
  /** The service's root, e.g. https://play.example.com (without /v1). */
  baseUrl: string;
  /** A fixed credential instead of a session: a seat token, a personal access token, your provider's JWT. */
  token?: string;
  /** Where the session is kept (memory by default; localStorageStore() shares it between a browser's tabs). */
  store?: SessionStore;
  /** The language of labels and problem titles (Accept-Language). */
  language?: string;
  /** fetch to use (globalThis.fetch by default). */
  fetch?: (request: Request) => Promise<Response>;
  /** How many times a 429, a 503 or a failed connection of a repeatable request is retried (3). */
  retries?: number;
}

const LONGEST_WAIT_MS = 10_000;
const SIGN_IN = /\/v1\/auth\/(guest|refresh)$/;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The data of an openapi-fetch answer, or its problem thrown as a FirebreakError. */
function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.error !== undefined || answer.data === undefined) throw toError(answer.response, answer.error);
  return answer.data;
}

export class Firebreak {
  /** The typed REST client (openapi-fetch) with this client's credential: every operation of the document. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  readonly store: SessionStore;
  private readonly token: string | undefined;
  private readonly language: string | undefined;
  private readonly fetchImpl: (request: Request) => Promise<Response>;
  private readonly retries: number;
  private readonly refresher: Refresher;
  /** Whether the service hands out stream tickets (undefined: not asked yet). */
  ticketsOffered: boolean | undefined;

  constructor(options: FirebreakOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.store = options.store ?? memoryStore();
    this.language = options.language;
    this.fetchImpl = options.fetch ?? ((request) => globalThis.fetch(request));
    this.retries = options.retries ?? 3;
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: (request) => this.send(request) });
    this.api.use({
      onRequest: async ({ request }) => {
        if (this.language && !request.headers.has('accept-language')) {
          request.headers.set('accept-language', this.language);
        }
        // sign-in and refresh send no credential (and a refresh must not wait on a refresh)
        if (!request.headers.has('authorization') && !SIGN_IN.test(new URL(request.url).pathname)) {
          const credential = await this.credential();
          if (credential) request.headers.set('authorization', `Bearer ${credential}`);
        }
        return request;
      },
    });
    this.refresher = new Refresher(this.store, (refreshToken) => this.swap(refreshToken),
      `firebreak-refresh ${this.baseUrl}`);
  }

  /** Sends one request: 429 and 503 are retried after their Retry-After, and a failed connection is retried
   * when repeating the request is safe (a GET, or a request with an Idempotency-Key). */
  async send(request: Request): Promise<Response> {
    const repeatable = request.method === 'GET' || request.headers.has('idempotency-key');
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= this.retries;
      const copy = last ? request : request.clone();
      let response: Response;
      try {
        response = await this.fetchImpl(copy);
      } catch (error) {
        if (last || !repeatable || request.signal.aborted) throw error;
        await sleep(Math.min(LONGEST_WAIT_MS, 250 * 2 ** attempt));
        continue;
      }
      if (last || (response.status !== 429 && response.status !== 503)) return response;
      const after = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      await sleep(Math.min(LONGEST_WAIT_MS, Number.isFinite(after) && after > 0 ? after * 1000 : 500 * 2 ** attempt));
    }
  }

  /** Sends one request as it is, with this client's fetch (no retry: the event stream waits on its own). */
  fetchOnce(request: Request): Promise<Response> {
    return this.fetchImpl(request);
  }

  /** The credential to send now: the fixed token, or the session's access token (renewed first when it is about
   * to expire); undefined when signed out. */
  async credential(): Promise<string | undefined> {
    if (this.token) return this.token;
    const session = await this.store.get();
    if (!session) return undefined;
    if (renewAt(session) > Date.now()) return session.accessToken;
    return (await this.refresher.refresh(session.refreshToken)).accessToken;
  }

  /** Runs a call; when its access token turns out expired (401), renews the session once and runs it again. */
  private async authed<T>(call: () => Promise<T & { response: Response; error?: unknown }>): Promise<T> {
    const seen = await this.refreshTokenSeen();
    const answer = await call();
    if (answer.response.status !== 401 || seen === undefined) return answer;
    await this.refresher.refresh(seen);
    return call();
  }

  // --- sign-in ---------------------------------------------------------------------------------------------

  /** Signs in as the guest of a device id (kept by the app: the same id is the same player); stores the session. */
  async signInAsGuest(name: string, deviceId: string): Promise<StoredSession> {
    const session = stored(ok(await this.api.POST('/v1/auth/guest', { body: { name, deviceId } })));
    await this.store.set(session);
    return session;
  }

  /** Renews the session now (one refresh at a time; tabs take turns through Web Locks where there are some). */
  async refresh(): Promise<StoredSession> {
    return this.refresher.refresh(await this.refreshTokenSeen());
  }

  private async swap(refreshToken: string): Promise<StoredSession> {
    const answer = await this.api.POST('/v1/auth/refresh', { body: { refreshToken } });
    if (answer.response.status === 401) await this.store.set(null); // the session is over: sign in again
    return stored(ok(answer));
  }

  /** Signs out this session (everywhere: every session of the player) and forgets it. */
  async signOut(everywhere = false): Promise<void> {
    ok(await this.api.POST('/v1/auth/sign-out', { params: { query: { everywhere } } }));
    await this.store.set(null);
  }

  /** The signed-in player. */
  async me(): Promise<Schemas['Me']> {
    return ok(await this.authed(() => this.api.GET('/v1/me')));
  }

  // --- matches ---------------------------------------------------------------------------------------------

  async createMatch(body: CreateMatch): Promise<Schemas['MatchCreated']> {
    return ok(await this.authed(() => this.api.POST('/v1/matches', { body })));
  }

  async joinMatch(matchId: string, body: Schemas['JoinMatch'] = {}): Promise<Schemas['SeatJoined']> {
    return ok(await this.authed(() => this.api.POST('/v1/matches/{id}/seats', { params: { path: { id: matchId } }, body })));
  }

  async addBot(matchId: string, level: BotLevel): Promise<Schemas['BotAdded']> {
    return ok(await this.authed(() => this.api.POST('/v1/matches/{id}/bots', { params: { path: { id: matchId } },
      body: { level } })));
  }

  /** A match as the caller sees it: its version, whose turn, the caller's legal actions and view. */
  async match(matchId: string): Promise<Match> {
    return ok(await this.authed(() => this.api.GET('/v1/matches/{id}', { params: { path: { id: matchId } } })));
  }

  /** Sends one of the caller's legal actions, as listed, with the version it was read at. The idempotency key
   * (a fresh one unless given) makes a retry after a lost answer safe: the service answers the first outcome.
   * A refusal is a result (switch on `code`); a fault is thrown. */
  async act(matchId: string, action: Action, expectedVersion: number,
    options: { idempotencyKey?: string; returnMatch?: boolean } = {}): Promise<ActResult> {
    const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    const headers: Record<string, string> = { 'Idempotency-Key': key };
    if (options.returnMatch) headers.Prefer = 'return=representation';
    const answer = await this.authed(() => this.api.POST('/v1/matches/{id}/actions', {
      params: { path: { id: matchId } }, headers, body: { action, expectedVersion },
    }));
    if (answer.data !== undefined) return { code: 'ACCEPTED', ...answer.data };
    const refused = answer.error !== undefined ? refusal(answer.error) : undefined;
    if (refused) return refused;
    throw toError(answer.response, answer.error);
  }

  async resign(matchId: string): Promise<Schemas['Resignation']> {
    return ok(await this.authed(() => this.api.POST('/v1/matches/{id}/resign', { params: { path: { id: matchId } } })));
  }

  /** One page of the player's matches (theirs to play first), after a page's endCursor. */
  async myMatches(query: { status?: 'WAITING' | 'ACTIVE' | 'OVER'; first?: number; after?: string } = {}):
    Promise<MyMatchPage> {
    return ok(await this.authed(() => this.api.GET('/v1/me/matches', { params: { query } })));
  }

  /** Every one of the player's matches, page after page. */
  async* allMyMatches(query: { status?: 'WAITING' | 'ACTIVE' | 'OVER'; first?: number } = {}):
    AsyncGenerator<MyMatch> {
    let after: string | undefined;
    for (;;) {
      const page = await this.myMatches({ ...query, ...(after === undefined ? {} : { after }) });
      yield* page.items;
      if (!page.hasNextPage || page.endCursor === null) return;
      after = page.endCursor;
    }
  }

  // --- seeks -----------------------------------------------------------------------------------------------

  /** Looks for opponents; a seekMatched event (and the seek's matchId) says where the match is. */
  async placeSeek(body: PlaceSeek): Promise<Seek> {
    return ok(await this.authed(() => this.api.POST('/v1/seeks', { body })));
  }

  async seek(seekId: string): Promise<Seek> {
    return ok(await this.authed(() => this.api.GET('/v1/seeks/{id}', { params: { path: { id: seekId } } })));
  }

  async cancelSeek(seekId: string): Promise<Seek> {
    return ok(await this.authed(() => this.api.DELETE('/v1/seeks/{id}', { params: { path: { id: seekId } } })));
  }

  async mySeeks(): Promise<Schemas['SeekList']> {
    return ok(await this.authed(() => this.api.GET('/v1/me/seeks')));
  }

  // --- invitations and rematch offers ----------------------------------------------------------------------

  async invite(matchId: string, who: Schemas['InvitePlayers']): Promise<Schemas['PlayersInvited']> {
    return ok(await this.authed(() => this.api.POST('/v1/matches/{id}/invitations', {
      params: { path: { id: matchId } }, body: who })));
  }

  async invitations(): Promise<Schemas['InvitationList']> {
    return ok(await this.authed(() => this.api.GET('/v1/me/invitations')));
  }

  /** Accepts (takes a seat bound to the player) or declines an invitation to a waiting match. */
  async answerInvitation(matchId: string, accept: boolean, name?: string): Promise<Schemas['InvitationAnswered']> {
    return ok(await this.authed(() => this.api.POST('/v1/me/invitations/{matchId}', {
      params: { path: { matchId } }, body: name === undefined ? { accept } : { accept, name } })));
  }

  /** Offers a rematch of an over match (the others get rematchOffered; bots accept at once). */
  async offerRematch(matchId: string): Promise<Rematched> {
    return ok(await this.authed(() => this.api.POST('/v1/matches/{id}/rematch-offer', {
      params: { path: { id: matchId } } })));
  }

  async acceptRematch(matchId: string): Promise<Rematched> {
    return ok(await this.authed(() => this.api.POST('/v1/matches/{id}/rematch-offer/accept', {
      params: { path: { id: matchId } } })));
  }

  async declineRematch(matchId: string): Promise<Rematched> {
    return ok(await this.authed(() => this.api.POST('/v1/matches/{id}/rematch-offer/decline', {
      params: { path: { id: matchId } } })));
  }

  // --- push ------------------------------------------------------------------------------------------------

  /** The key a browser subscribes with (PushManager.subscribe's applicationServerKey). */
  async vapidPublicKey(): Promise<Schemas['VapidPublicKey']> {
    return ok(await this.api.GET('/v1/push/vapid-public-key'));
  }

  /** Registers a browser's PushSubscription (its toJSON(): endpoint and keys). */
  async registerPushSubscription(subscription: Schemas['RegisterPushSubscription']):
    Promise<Schemas['PushSubscriptionRegistered']> {
    return ok(await this.authed(() => this.api.POST('/v1/me/push-subscriptions', { body: subscription })));
  }

  /** Registers a native app's FCM registration token. */
  async registerPushDevice(token: string): Promise<Schemas['PushSubscriptionRegistered']> {
    return ok(await this.authed(() => this.api.POST('/v1/me/push-devices', { body: { token } })));
  }

  async removePushSubscription(subscriptionId: string): Promise<Schemas['PushSubscriptionRemoved']> {
    return ok(await this.authed(() => this.api.DELETE('/v1/me/push-subscriptions/{subscriptionId}', {
      params: { path: { subscriptionId } } })));
  }

  // --- the player's events ---------------------------------------------------------------------------------

  /** The player's events (GET /v1/me/events), resumed after `after` and reconnected with backoff and a fresh
   * token until `signal` aborts; see follow(). */
  events(options: FollowOptions = {}): AsyncGenerator<MyEvent> {
    return follow(this, options);
  }

  /** A one-time stream ticket (POST /v1/me/events/ticket), or undefined where the service offers none (an older
   * one: the stream then sends the Authorization header, which fetch can). */
  async ticket(): Promise<string | undefined> {
    if (this.ticketsOffered === false) return undefined;
    const answer = await this.authed(() => this.api.POST('/v1/me/events/ticket'));
    if (answer.response.status === 404 || answer.response.status === 405) {
      this.ticketsOffered = false;
      return undefined;
    }
    const { ticket } = ok(answer);
    this.ticketsOffered = true;
    return ticket;
  }

  /** The refresh token of the session kept now (undefined with a fixed credential or signed out): what a caller
   * saw before a call, so that a renewal after it fails renews only if nobody else has since. */
  async refreshTokenSeen(): Promise<string | undefined> {
    return this.token ? undefined : (await this.store.get())?.refreshToken;
  }

  /** Renews the session after the service said its access token expired (a stream's last message), unless it
   * was renewed since `seen` (refreshTokenSeen() before the call). */
  async renewAfterExpiry(seen: string | undefined): Promise<void> {
    if (this.token) throw new FirebreakError(401, 'UNAUTHENTICATED', 'the fixed credential has expired');
    await this.refresher.refresh(seen);
  }

  /** The language header, when one was set. */
  get acceptLanguage(): string | undefined {
    return this.language;
  }
}
