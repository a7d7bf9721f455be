import type { Problem } from '../errors.js';

export type { Problem };

/** Base of every error the client throws, so callers can catch the client's failures in one place. */
export class ClientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** What the server said when it refused a request, as read from its answer. */
export interface ApiErrorInit {
  status: number;
  method: string;
  url: string;
  /** The parsed JSON body, or the text when it was not JSON. */
  body: unknown;
}

/** A non-2xx answer: the status, the server's detail, and the 422 problem list when there is one. */
export class ApiError extends ClientError {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The server's explanation (its "detail" field), or the status text when the body has none. */
  readonly detail: string;
  /** The body's numeric or textual "code" field (AYON repeats the status there), else null. */
  readonly code: number | string | null;
  /** A machine-readable reason ("errorCode") when the body carries one, else null. */
  readonly errorCode: string | null;
  /** Every input problem the server found ({loc, msg, type}); empty unless the answer was a validation error. */
  readonly problems: Problem[];
  /** The request that failed, for messages and logs. */
  readonly method: string;
  readonly url: string;
  /** The body as received. */
  readonly body: unknown;

  constructor(init: ApiErrorInit) {
    const body = init.body;
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const problems = readProblems(fields);
    const detail =
      typeof fields.detail === 'string'
        ? fields.detail
        : typeof body === 'string' && body.trim() !== ''
          ? body.slice(0, 500)
          : problems.length > 0
            ? problems.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; ')
            : `HTTP ${init.status}`;
    super(`${init.method} ${pathOf(init.url)} answered ${init.status}: ${detail}`);
    this.status = init.status;
    this.detail = detail;
    this.code = typeof fields.code === 'number' || typeof fields.code === 'string' ? fields.code : null;
    this.errorCode = typeof fields.errorCode === 'string' ? fields.errorCode : null;
    this.problems = problems;
    this.method = init.method;
    this.url = init.url;
    this.body = body;
  }
}

/** 400: the server understood the request but will not carry it out as asked. */
export class BadRequestError extends ApiError {}
/** 401: no credentials, or ones the server no longer accepts (log in again). */
export class UnauthorizedError extends ApiError {}
/** 403: logged in, but not allowed to do this. */
export class ForbiddenError extends ApiError {}
/** 404: the thing asked for does not exist, or is not visible to the caller. */
export class NotFoundError extends ApiError {}
/** 409: the change conflicts with the current state (a duplicate name, an existing id, ...). */
export class ConflictError extends ApiError {}
/** 422: the input broke the route's schema or a rule; `problems` lists every finding. */
export class ValidationError extends ApiError {}
/** 429: too many attempts in a short time. */
export class TooManyRequestsError extends ApiError {}
/** 5xx: the server failed or is unavailable; retrying later may help. */
export class ServerError extends ApiError {}

const BY_STATUS: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  422: ValidationError,
  429: TooManyRequestsError,
};

/** The most specific ApiError subclass for an answer's status. */
export function apiErrorFor(init: ApiErrorInit): ApiError {
  const Class = BY_STATUS[init.status] ?? (init.status >= 500 ? ServerError : ApiError);
  return new Class(init);
}

/** The server could not be reached or the connection broke before an answer arrived. */
export class NetworkError extends ClientError {
  /** The request that could not be made. */
  readonly method: string;
  readonly url: string;

  constructor(method: string, url: string, cause: unknown) {
    const reason = describeCause(cause);
    super(`${method} ${url} could not reach the server: ${reason}`, { cause });
    this.method = method;
    this.url = url;
  }
}

/** One entry of a GraphQL answer's "errors" list. */
export interface GraphQLErrorEntry {
  message: string;
  path?: (string | number)[];
  locations?: { line?: number; column?: number }[];
  extensions?: Record<string, unknown>;
}

/** A GraphQL answer that carried errors; `data` holds whatever part of the result the server still produced. */
export class GraphQLRequestError extends ClientError {
  /** The server's error entries, in its order. */
  readonly errors: GraphQLErrorEntry[];
  /** The partial result, or null. */
  readonly data: unknown;
  /** The HTTP status of the answer (200 for resolver errors, 400 for a query the server could not run). */
  readonly status: number;

  constructor(errors: GraphQLErrorEntry[], data: unknown, status: number) {
    super(`GraphQL: ${errors.map((e) => e.message).join('; ')}`);
    this.errors = errors;
    this.data = data ?? null;
    this.status = status;
  }

  /** The server's messages, one per error. */
  get messages(): string[] {
    return this.errors.map((e) => e.message);
  }
}

// AYON answers validation errors as {detail, errors: [...]}; plain FastAPI puts the list in "detail" itself.
function readProblems(fields: Record<string, unknown>): Problem[] {
  const list = Array.isArray(fields.errors)
    ? fields.errors
    : Array.isArray(fields.detail)
      ? fields.detail
      : [];
  return list
    .filter((p): p is Record<string, unknown> => typeof p === 'object' && p !== null)
    .map((p) => ({
      loc: Array.isArray(p.loc) ? (p.loc as (string | number)[]) : [],
      msg: typeof p.msg === 'string' ? p.msg : String(p.message ?? ''),
      type: typeof p.type === 'string' ? p.type : '',
    }));
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

// Node's fetch hides the useful part ("ECONNREFUSED 127.0.0.1:5000") in error.cause. Duck-typed, not instanceof:
// errors raised by Node's fetch may come from another realm (a vm context, Jest) than this module's Error.
function describeCause(cause: unknown): string {
  const messageOf = (value: unknown) =>
    typeof value === 'object' && value !== null && typeof (value as Error).message === 'string'
      ? (value as Error).message
      : null;
  const outer = messageOf(cause);
  if (outer === null) return String(cause);
  const inner = messageOf((cause as { cause?: unknown }).cause);
  return inner && inner !== outer ? `${outer} (${inner})` : outer;
}
