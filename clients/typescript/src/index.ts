// @firebreak/client: a typed client for Firebreak's REST API, for browsers and Node 20+.
export { Firebreak } from './client.js';
export type { Action, BotLevel, CreateMatch, FirebreakOptions, GameEvent, Invitation, Match, MyMatch, MyMatchPage, PlaceSeek,
  Rematched, Seek, View } from './client.js';
export type { Accepted, ActRefusal, ActResult, IllegalAction, Refused, StaleVersion } from './act.js';
export { FirebreakError, isProblem } from './errors.js';
export type { Problem } from './errors.js';
export { follow } from './events.js';
export type { FollowOptions, MyEvent } from './events.js';
export { localStorageStore, memoryStore } from './session.js';
export type { Player, SessionStore, StoredSession } from './session.js';
export { readEvents } from './sse.js';
export type { SseMessage } from './sse.js';
export type { components, operations, paths } from './schema.js';
