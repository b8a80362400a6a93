// The player's event stream (GET /v1/me/events) read with fetch: a one-time ticket where the service offers one
// (else the Authorization header), resumed with Last-Event-ID after the last event seen, reconnected with a
// growing, jittered wait after a drop, and with a renewed access token when the stream ends because it expired.
import type { components } from './schema.js';
import { FirebreakError, toError } from './errors.js';
import { readEvents } from './sse.js';
import type { Firebreak } from './client.js';

export type MyEvent = components['schemas']['MyEvent'];

export interface FollowOptions {
  /** Resume after this event id ("0": from the oldest kept; left out: from now on). */
  after?: string;
  /** Stops the stream (the generator returns). */
  signal?: AbortSignal;
  /** Called each time a connection is open: from then on no event is missed (read what you need now). */
  onOpen?: () => void | Promise<void>;
  /** Use a stream ticket when the service offers them ('auto', the default) or always send the header. */
  ticket?: 'auto' | 'never';
  /** The first wait after a drop and the longest (ms): 500 and 15000. */
  backoff?: { first?: number; longest?: number };
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> => new Promise((resolve) => {
  const timer = setTimeout(done, ms);
  function done(): void {
    clearTimeout(timer);
    signal?.removeEventListener('abort', done);
    resolve();
  }
  signal?.addEventListener('abort', done, { once: true });
});

/** The player's events until `signal` aborts. Throws FirebreakError when following cannot go on: the session is
 * over (signed out, revoked), or the cursor is refused (BAD_CURSOR, CURSOR_EXPIRED: read my matches, then follow
 * from now on). */
export async function* follow(client: Firebreak, options: FollowOptions = {}): AsyncGenerator<MyEvent> {
  const { signal } = options;
  const first = options.backoff?.first ?? 500;
  const longest = options.backoff?.longest ?? 15_000;
  let cursor = options.after;
  let failures = 0;
  while (!signal?.aborted) {
    let seen: string | undefined; // the session's refresh token when this connection was made
    try {
      const url = new URL(`${client.baseUrl}/v1/me/events`);
      const headers = new Headers({ accept: 'text/event-stream' });
      if (client.acceptLanguage) headers.set('accept-language', client.acceptLanguage);
      if (cursor !== undefined) headers.set('last-event-id', cursor);
      const credential = await client.credential(); // renewed first when it is about to expire
      seen = await client.refreshTokenSeen();
      const ticket = options.ticket === 'never' ? undefined : await client.ticket();
      if (ticket !== undefined) url.searchParams.set('ticket', ticket);
      else if (credential) headers.set('authorization', `Bearer ${credential}`);
      const request = new Request(url, { headers, signal: signal ?? null });
      const response = await client.fetchOnce(request);
      if (!response.ok || !response.body) {
        const body: unknown = await response.json().catch(() => undefined);
        const error = toError(response, body);
        if (response.status === 401 && error.reason === 'expired' && failures === 0) {
          await client.renewAfterExpiry(seen);
          failures += 1;
          continue;
        }
        if (response.status === 429 || response.status >= 500) throw error; // waited on below
        throw new FatalStreamError(error);
      }
      failures = 0;
      await options.onOpen?.();
      for await (const message of readEvents(response.body, signal)) {
        if (message.event === 'error') {
          const said = JSON.parse(message.data) as { code?: string; reason?: string; detail?: string };
          if (said.code === 'UNAUTHENTICATED' && said.reason === 'expired') {
            await client.renewAfterExpiry(seen);
            break; // reconnect at once with the new token, after the last event seen
          }
          if (said.code === 'UNAUTHENTICATED') {
            throw new FatalStreamError(new FirebreakError(401, said.code, `the stream ended: ${said.reason ?? ''}`,
              { type: 'about:blank', title: 'Unauthenticated', status: 401, detail: said.reason ?? '',
                code: said.code, ...(said.reason === undefined ? {} : { reason: said.reason }) }));
          }
          throw new FirebreakError(503, said.code ?? 'SERVICE_UNAVAILABLE', said.detail ?? 'the stream ended');
        }
        const event = JSON.parse(message.data) as MyEvent;
        cursor = message.id ?? event.id ?? cursor;
        yield event;
      }
    } catch (error) {
      if (error instanceof FatalStreamError) throw error.cause;
      if (signal?.aborted) return;
      // a refusal (signed out, a refresh refused, ...) is not cured by waiting: only a fault or a limit is
      if (error instanceof FirebreakError && error.status >= 400 && error.status < 500 && error.status !== 408
        && error.status !== 429) throw error;
      failures += 1;
      const wait = Math.min(longest, first * 2 ** Math.min(failures - 1, 16));
      await sleep(wait / 2 + Math.random() * (wait / 2), signal);
    }
  }
}

/** Ends following: the cause is thrown to the caller, not waited on. */
class FatalStreamError extends Error {
  override readonly cause: FirebreakError;

  constructor(cause: FirebreakError) {
    super(cause.message);
    this.cause = cause;
  }
}
