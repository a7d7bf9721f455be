import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PipewrightError, ValidationFailed, toProblems, type Problem } from '@pipewright/sdk';
import { MAX_PROBLEMS } from './input-checks.js';

const LOCATIONS: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};
// PostgreSQL's query_canceled (SQLSTATE 57014), raised when a statement outlives the statement timeout.
const QUERY_CANCELED = '57014';

function send(reply: FastifyReply, status: number, body: object) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** Every error answer of the server is shaped here, and only here. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.validation) {
      const problems = toProblems(
        [LOCATIONS[error.validationContext ?? 'body'] ?? 'body'],
        error.validation as any,
      );
      return send(reply, 422, { detail: summarise(problems), errors: problems.slice(0, MAX_PROBLEMS) });
    }
    if (error instanceof ValidationFailed) {
      return send(reply, 422, { detail: error.message, errors: error.problems.slice(0, MAX_PROBLEMS) });
    }
    if (error instanceof PipewrightError) {
      return send(reply, error.status, { code: error.status, detail: error.message });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      // FastAPI answers a body that is not JSON with 422 as well.
      const problems = [{ loc: ['body'], msg: error.message, type: 'json_invalid' }];
      return send(reply, 422, { detail: 'The request body is not valid JSON', errors: problems });
    }
    const refused = databaseRefusal(error);
    if (refused)
      return send(reply, 422, {
        detail: refused,
        errors: [{ loc: ['body'], msg: refused, type: 'value_error' }],
      });
    if (error.code === QUERY_CANCELED) {
      // The statement ran past STATEMENT_TIMEOUT: the server is busy or the request too large, not broken.
      request.log.warn({ err: error }, 'statement cancelled');
      return send(reply, 503, {
        code: 503,
        detail: 'The request took too long: the database cancelled it (statement timeout)',
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return send(reply, 500, { code: 500, detail: 'Internal server error' });
    }
    return send(reply, status, { code: status, detail: error.message });
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, { code: 404, detail: `Not found: ${request.method} ${request.url.split('?')[0]}` }),
  );
}

/** A 422 for input the route cannot take, listing what is wrong. */
export function invalidInput(problems: Problem[]): ValidationFailed {
  return new ValidationFailed(problems, summarise(problems));
}

/** Routing's own errors (a URL that does not decode, a path parameter over the length limit) in AYON's shape. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 400;
  const detail =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : 'The URL is malformed';
  return send(reply, status, { code: status, detail });
}

/**
 * PostgreSQL refusing a value the schemas let through (a number beyond an integer column, text too long for an
 * index, a malformed regular expression given as a filter): the caller's input, so a 422, told in our words, since
 * the database's message names tables and columns.
 */
const DATABASE_REFUSALS: Record<string, string> = {
  '22001': 'A value is too long',
  '22003': 'A number is out of range',
  '22007': 'A date or time is malformed',
  '22008': 'A date or time is out of range',
  '22021': 'Text contains characters that cannot be stored',
  '22P02': 'A value is malformed',
  '22P05': 'Text contains characters that cannot be stored',
  '2201B': 'A regular expression is invalid',
  '22025': 'A pattern has an invalid escape',
  '54000': 'A value is too long to be stored',
};

function databaseRefusal(error: unknown): string | null {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  if (typeof code !== 'string' || typeof severity !== 'string') return null;
  return DATABASE_REFUSALS[code] ?? null;
}

function summarise(problems: Problem[]): string {
  const first = problems[0];
  if (!first) return 'Validation error';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return `Validation error: ${first.loc.join('.')}: ${first.msg}${more}`;
}
