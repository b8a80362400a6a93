// act's outcome as a value: accepted, or one of the refusals an app handles in its own way (a discriminated union
// on `code`, so `switch (result.code)` narrows it). Faults nobody handles per move (signed out, rate limited past
// the retries, a malformed request) are thrown as FirebreakError instead.
import type { components } from './schema.js';
import type { Problem } from './errors.js';

export type ActionAccepted = components['schemas']['ActionAccepted'];

/** The action was taken: the match's new version, the step's events and (when asked) the match after it. */
export interface Accepted extends ActionAccepted {
  code: 'ACCEPTED';
}

/** The match moved since the version sent: read it again and choose from its new legal actions. */
export interface StaleVersion {
  code: 'STALE_VERSION';
  currentVersion: number;
  problem: Problem;
}

/** The action is not legal now; `rule` is the title's more precise rules code when it gave one. */
export interface IllegalAction {
  code: 'ILLEGAL_ACTION';
  rule: string;
  problem: Problem;
}

/** The other refusals of act, each changing nothing. */
export interface Refused {
  code: 'NOT_YOUR_TURN' | 'MATCH_OVER' | 'MATCH_NOT_STARTED' | 'SEAT_TAKEN_OVER' | 'SEAT_RESIGNED'
    | 'MATCH_NOT_FOUND' | 'FORBIDDEN_SCOPE';
  problem: Problem;
}

export type ActRefusal = StaleVersion | IllegalAction | Refused;
export type ActResult = Accepted | ActRefusal;

const REFUSED = new Set<string>(['NOT_YOUR_TURN', 'MATCH_OVER', 'MATCH_NOT_STARTED', 'SEAT_TAKEN_OVER',
  'SEAT_RESIGNED', 'MATCH_NOT_FOUND', 'FORBIDDEN_SCOPE']);

const MALFORMED = new Set<string>(['VALIDATION_FAILED', 'BAD_IDEMPOTENCY_KEY']); // the request's fault, thrown

/** The refusal a problem stands for, or undefined for a fault to throw. */
export function refusal(problem: Problem): ActRefusal | undefined {
  if (problem.code === 'STALE_VERSION') {
    return { code: 'STALE_VERSION', currentVersion: problem.currentVersion ?? -1, problem };
  }
  if (REFUSED.has(problem.code)) return { code: problem.code as Refused['code'], problem };
  // ILLEGAL_ACTION, or a title's more precise code for it (a 422 that is not the body's validation)
  if (problem.code === 'ILLEGAL_ACTION' || (problem.status === 422 && !MALFORMED.has(problem.code))) {
    return { code: 'ILLEGAL_ACTION', rule: problem.code, problem };
  }
  return undefined;
}
