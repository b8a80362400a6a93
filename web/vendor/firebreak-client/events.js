import { FirebreakError, toError } from './errors.js';
import { readEvents } from './sse.js';
const sleep = (ms, signal) => new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
});
/** The player's events until `signal` aborts. Throws FirebreakError when following cannot go on: the session is
 * over (signed out, revoked), or the cursor is refused (BAD_CURSOR, CURSOR_EXPIRED: read my matches, then follow
 * from now on). */
export async function* follow(client, options = {}) {
    const { signal } = options;
    const first = options.backoff?.first ?? 500;
    const longest = options.backoff?.longest ?? 15_000;
    let cursor = options.after;
    let failures = 0;
    while (!signal?.aborted) {
        let seen; // the session's refresh token when this connection was made
        try {
            const url = new URL(`${client.baseUrl}/v1/me/events`);
            const headers = new Headers({ accept: 'text/event-stream' });
            if (client.acceptLanguage)
                headers.set('accept-language', client.acceptLanguage);
            if (cursor !== undefined)
                headers.set('last-event-id', cursor);
            const credential = await client.credential(); // renewed first when it is about to expire
            seen = await client.refreshTokenSeen();
            const ticket = options.ticket === 'never' ? undefined : await client.ticket();
            if (ticket !== undefined)
                url.searchParams.set('ticket', ticket);
            else if (credential)
                headers.set('authorization', `Bearer ${credential}`);
            const request = new Request(url, { headers, signal: signal ?? null });
            const response = await client.fetchOnce(request);
            if (!response.ok || !response.body) {
                const body = await response.json().catch(() => undefined);
                const error = toError(response, body);
                if (response.status === 401 && error.reason === 'expired' && failures === 0) {
                    await client.renewAfterExpiry(seen);
                    failures += 1;
                    continue;
                }
                if (response.status === 429 || response.status >= 500)
                    throw error; // waited on below
                throw new FatalStreamError(error);
            }
            failures = 0;
            await options.onOpen?.();
            for await (const message of readEvents(response.body, signal)) {
                if (message.event === 'error') {
                    const said = JSON.parse(message.data);
                    if (said.code === 'UNAUTHENTICATED' && said.reason === 'expired') {
                        await client.renewAfterExpiry(seen);
                        break; // reconnect at once with the new token, after the last event seen
                    }
                    if (said.code === 'UNAUTHENTICATED') {
                        throw new FatalStreamError(new FirebreakError(401, said.code, `the stream ended: ${said.reason ?? ''}`, { type: 'about:blank', title: 'Unauthenticated', status: 401, detail: said.reason ?? '',
                            code: said.code, ...(said.reason === undefined ? {} : { reason: said.reason }) }));
                    }
                    throw new FirebreakError(503, said.code ?? 'SERVICE_UNAVAILABLE', said.detail ?? 'the stream ended');
                }
                const event = JSON.parse(message.data);
                cursor = message.id ?? event.id ?? cursor;
                yield event;
            }
        }
        catch (error) {
            if (error instanceof FatalStreamError)
                throw error.cause;
            if (signal?.aborted)
                return;
            // a refusal (signed out, a refresh refused, ...) is not cured by waiting: only a fault or a limit is
            if (error instanceof FirebreakError && error.status >= 400 && error.status < 500 && error.status !== 408
                && error.status !== 429)
                throw error;
            failures += 1;
            const wait = Math.min(longest, first * 2 ** Math.min(failures - 1, 16));
            await sleep(wait / 2 + Math.random() * (wait / 2), signal);
        }
    }
}
/** Ends following: the cause is thrown to the caller, not waited on. */
class FatalStreamError extends Error {
    cause;
    constructor(cause) {
        super(cause.message);
        this.cause = cause;
    }
}
