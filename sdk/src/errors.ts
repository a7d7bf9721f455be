/** One problem found while validating input, located as FastAPI does: ["body", "name"]. */
export interface Problem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Base of every error an addon throws on purpose; the core turns it into an HTTP answer. */
export class PipewrightError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Machine-readable reason, reported by batch operations as errorCode. */
    readonly errorCode: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** An error class answering one status, with its default message and errorCode. */
function answering(status: number, defaultMessage: string, defaultCode: string) {
  return class extends PipewrightError {
    constructor(message = defaultMessage, errorCode = defaultCode) {
      super(status, message, errorCode);
    }
  };
}

/** 400: the request is understood but cannot be carried out as asked. */
export class BadRequest extends answering(400, 'Bad request', 'bad-request') {}

/** 401: no valid credentials. */
export class Unauthorized extends answering(401, 'Not logged in', 'unauthorized') {}

/** 403: logged in, but not allowed to do this. */
export class Forbidden extends answering(403, 'Not allowed', 'forbidden') {}

/** 404: the thing asked for does not exist (or is not visible to the caller). */
export class NotFound extends answering(404, 'Not found', 'not-found') {}

/** 409: the change conflicts with the current state (a duplicate name, a published version, ...). */
export class Conflict extends answering(409, 'Conflict', 'conflict') {}

/** 422: input that passed the schema but breaks a rule; carries the AYON problem list. */
export class ValidationFailed extends PipewrightError {
  constructor(
    readonly problems: Problem[],
    message = 'Validation error',
  ) {
    super(422, message, 'invalid-data');
  }
}

/** 429: too many attempts in a short time. */
export class TooManyRequests extends answering(429, 'Too many requests', 'rate-limited') {}

/** 503: the server cannot take this now (pool nearly full, shutting down, ...). */
export class ServiceUnavailable extends answering(503, 'Service unavailable', 'unavailable') {}

/**
 * How one failed operation of a batch is reported (status, errorCode, detail): a PipewrightError as it says, a
 * validation failure with its problems spelled out, anything else as a 500 'internal' (known is then false, so
 * the caller logs it).
 */
export function operationFailure(error: unknown): {
  known: boolean;
  status: number;
  errorCode: string;
  detail: string;
} {
  if (!(error instanceof PipewrightError))
    return { known: false, status: 500, errorCode: 'internal', detail: 'Internal error' };
  const detail =
    error instanceof ValidationFailed
      ? `${error.message}: ${error.problems.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; ')}`
      : error.message;
  return { known: true, status: error.status, errorCode: error.errorCode, detail };
}
