import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PipewrightError, ValidationFailed, toProblems, type Problem } from '@pipewright/sdk';

const LOCATIONS: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function send(reply: FastifyReply, status: number, body: object) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** Every error answer of the server is shaped here, and only here. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.validation) {
      const problems = toProblems([LOCATIONS[error.validationContext ?? 'body'] ?? 'body'], error.validation as any);
      return send(reply, 422, { detail: summarise(problems), errors: problems });
    }
    if (error instanceof ValidationFailed) {
      return send(reply, 422, { detail: error.message, errors: error.problems });
    }
    if (error instanceof PipewrightError) {
      return send(reply, error.status, { code: error.status, detail: error.message });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      // FastAPI answers a body that is not JSON with 422 as well.
      const problems = [{ loc: ['body'], msg: error.message, type: 'json_invalid' }];
      return send(reply, 422, { detail: 'The request body is not valid JSON', errors: problems });
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

function summarise(problems: Problem[]): string {
  const first = problems[0];
  if (!first) return 'Validation error';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return `Validation error: ${first.loc.join('.')}: ${first.msg}${more}`;
}
