// A player's session: the access token every call sends and the refresh token that renews it. One refresh at a
// time per client (single flight); in a browser, tabs that share a store also take turns through the Web Locks
// API, and a tab that waited uses the session the other just stored instead of spending its refresh token again
// (the service forgives a reuse within its grace window too, so without locks two tabs still end up signed in).
import type { components } from './schema.js';

export type Player = components['schemas']['Player'];

/** What a client keeps of a session. */
export interface StoredSession {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, in milliseconds since the epoch (by this device's clock). */
  accessExpiresAt: number;
  /** When to renew it (ms since the epoch): 30 s before it expires, or after 3/4 of a shorter lifetime. */
  renewAt?: number;
  player: Player;
}

/** Where a client keeps its session: memory by default; a browser app may share one between tabs. */
export interface SessionStore {
  get(): StoredSession | null | Promise<StoredSession | null>;
  set(session: StoredSession | null): void | Promise<void>;
}

/** A store in memory (the default: one process, one client). */
export function memoryStore(initial: StoredSession | null = null): SessionStore {
  let held = initial;
  return {
    get: () => held,
    set: (session) => {
      held = session;
    },
  };
}

/** A store in a browser's localStorage under a key (shared by the origin's tabs). */
export function localStorageStore(key = 'firebreak.session'): SessionStore {
  const storage = (globalThis as { localStorage?: Storage }).localStorage;
  if (!storage) throw new Error('localStorage is not available here');
  return {
    get: () => {
      const raw = storage.getItem(key);
      return raw ? (JSON.parse(raw) as StoredSession) : null;
    },
    set: (session) => {
      if (session) storage.setItem(key, JSON.stringify(session));
      else storage.removeItem(key);
    },
  };
}

/** A session as the service answers it, as a client keeps it. */
export function stored(session: components['schemas']['Session'], now = Date.now()): StoredSession {
  const lifetime = session.accessTokenExpiresIn * 1000;
  return {
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    accessExpiresAt: now + lifetime,
    renewAt: now + Math.max(lifetime - 30_000, lifetime * 0.75),
    player: session.player,
  };
}

/** When a kept session's access token should be renewed. */
export function renewAt(session: StoredSession): number {
  return session.renewAt ?? session.accessExpiresAt - 30_000;
}

interface Locks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** The Web Locks API where there is one (browsers; Node has none before 22 and none shared between processes). */
export function webLocks(): Locks | undefined {
  const navigator = (globalThis as { navigator?: { locks?: Locks } }).navigator;
  return navigator?.locks && typeof navigator.locks.request === 'function' ? navigator.locks : undefined;
}

/** Runs refreshes one at a time: callers during a refresh share its outcome. */
export class Refresher {
  private inFlight: Promise<StoredSession> | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly swap: (refreshToken: string) => Promise<StoredSession>,
    private readonly lockName: string,
  ) {}

  /** A fresh session: renewed now, or by whoever renewed it since `seen` (the refresh token the caller had; an
   * access token will not do: one renewed within the same second can be the same string). */
  refresh(seen: string | undefined): Promise<StoredSession> {
    this.inFlight ??= this.run(seen).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async run(seen: string | undefined): Promise<StoredSession> {
    const once = async (): Promise<StoredSession> => {
      const now = await this.store.get();
      if (!now) throw new Error('not signed in: no session to refresh');
      // Another tab (or an earlier call) renewed it while this one waited for the lock: use that one.
      if (seen !== undefined && now.refreshToken !== seen) return now;
      const renewed = await this.swap(now.refreshToken);
      await this.store.set(renewed);
      return renewed;
    };
    const locks = webLocks();
    return locks ? locks.request(this.lockName, once) : once();
  }
}
