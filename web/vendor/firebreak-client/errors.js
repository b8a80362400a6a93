/** A problem answered by the service (status, code and the problem's fields), or a transport failure (status 0). */
export class FirebreakError extends Error {
    status;
    code;
    problem;
    constructor(status, code, message, problem) {
        super(message);
        this.name = 'FirebreakError';
        this.status = status;
        this.code = code;
        this.problem = problem;
    }
    /** The reason of an UNAUTHENTICATED problem (expired, revoked, ...), if any. */
    get reason() {
        return this.problem?.reason;
    }
}
/** Whether a value has the shape of a problem document. */
export function isProblem(value) {
    return typeof value === 'object' && value !== null && typeof value.code === 'string'
        && typeof value.status === 'number';
}
/** The error for a non-2xx answer: its problem when it has one. */
export function toError(response, body) {
    if (isProblem(body))
        return new FirebreakError(response.status, body.code, `${body.code}: ${body.detail}`, body);
    return new FirebreakError(response.status, 'HTTP_' + response.status, `HTTP ${response.status} ${response.statusText}`);
}
