// @firebreak/client: a typed client for Firebreak's REST API, for browsers and Node 20+.
export { Firebreak } from './client.js';
export { FirebreakError, isProblem } from './errors.js';
export { follow } from './events.js';
export { localStorageStore, memoryStore } from './session.js';
export { readEvents } from './sse.js';
