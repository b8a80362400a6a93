const REFUSED = new Set(['NOT_YOUR_TURN', 'MATCH_OVER', 'MATCH_NOT_STARTED', 'SEAT_TAKEN_OVER',
    'SEAT_RESIGNED', 'MATCH_NOT_FOUND', 'FORBIDDEN_SCOPE']);
const MALFORMED = new Set(['VALIDATION_FAILED', 'BAD_IDEMPOTENCY_KEY']); // the request's fault, thrown
/** The refusal a problem stands for, or undefined for a fault to throw. */
export function refusal(problem) {
    if (problem.code === 'STALE_VERSION') {
        return { code: 'STALE_VERSION', currentVersion: problem.currentVersion ?? -1, problem };
    }
    if (REFUSED.has(problem.code))
        return { code: problem.code, problem };
    // ILLEGAL_ACTION, or a title's more precise code for it (a 422 that is not the body's validation)
    if (problem.code === 'ILLEGAL_ACTION' || (problem.status === 422 && !MALFORMED.has(problem.code))) {
        return { code: 'ILLEGAL_ACTION', rule: problem.code, problem };
    }
    return undefined;
}
