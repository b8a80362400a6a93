/** A store in memory (the default: one process, one client). */
export function memoryStore(initial = null) {
    let held = initial;
    return {
        get: () => held,
        set: (session) => {
            held = session;
        },
    };
}
/** A store in a browser's localStorage under a key (shared by the origin's tabs). */
export function localStorageStore(key = 'firebreak.session') {
    const storage = globalThis.localStorage;
    if (!storage)
        throw new Error('localStorage is not available here');
    return {
        get: () => {
            const raw = storage.getItem(key);
            return raw ? JSON.parse(raw) : null;
        },
        set: (session) => {
            if (session)
                storage.setItem(key, JSON.stringify(session));
            else
                storage.removeItem(key);
        },
    };
}
/** A session as the service answers it, as a client keeps it. */
export function stored(session, now = Date.now()) {
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
export function renewAt(session) {
    return session.renewAt ?? session.accessExpiresAt - 30_000;
}
/** The Web Locks API where there is one (browsers; Node has none before 22 and none shared between processes). */
export function webLocks() {
    const navigator = globalThis.navigator;
    return navigator?.locks && typeof navigator.locks.request === 'function' ? navigator.locks : undefined;
}
/** Runs refreshes one at a time: callers during a refresh share its outcome. */
export class Refresher {
    store;
    swap;
    lockName;
    inFlight;
    constructor(store, swap, lockName) {
        this.store = store;
        this.swap = swap;
        this.lockName = lockName;
    }
    /** A fresh session: renewed now, or by whoever renewed it since `seen` (the refresh token the caller had; an
     * access token will not do: one renewed within the same second can be the same string). */
    refresh(seen) {
        this.inFlight ??= this.run(seen).finally(() => {
            this.inFlight = undefined;
        });
        return this.inFlight;
    }
    async run(seen) {
        const once = async () => {
            const now = await this.store.get();
            if (!now)
                throw new Error('not signed in: no session to refresh');
            // Another tab (or an earlier call) renewed it while this one waited for the lock: use that one.
            if (seen !== undefined && now.refreshToken !== seen)
                return now;
            const renewed = await this.swap(now.refreshToken);
            await this.store.set(renewed);
            return renewed;
        };
        const locks = webLocks();
        return locks ? locks.request(this.lockName, once) : once();
    }
}
