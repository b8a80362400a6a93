// A refusal or a fault the caller cannot handle by looking at a typed result: an RFC 9457 problem, thrown.
import type { components } from './schema.js';

export type Problem = components['schemas']['Problem'];

/** A problem answered by the service (status, code and the problem's fields), or a transport failure (status 0). */
export class FirebreakError extends Error {
  readonly status: number;
  readonly code: string;
  readonly problem: Problem | undefined;

  constructor(status: number, code: string, message: string, problem?: Problem) {
    super(message);
    this.name = 'FirebreakError';
    this.status = status;
    this.code = code;
    this.problem = problem;
  }

  /** The reason of an UNAUTHENTICATED problem (expired, revoked, ...), if any. */
  get reason(): string | undefined {
    return this.problem?.reason;
  }
}

/** Whether a value has the shape of a problem document. */
export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string'
    && typeof (value as { status?: unknown }).status === 'number';
}

/** The error for a non-2xx answer: its problem when it has one. */
export function toError(response: Response, body: unknown): FirebreakError {
  if (isProblem(body)) return new FirebreakError(response.status, body.code, `${body.code}: ${body.detail}`, body);
  return new FirebreakError(response.status, 'HTTP_' + response.status, `HTTP ${response.status} ${response.statusText}`);
}
