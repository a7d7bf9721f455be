import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addonRef, requireUser, runAsSender, Unauthorized, type Sender } from '@pipewright/sdk';
import type { ServiceRegistry } from '../addons/context.js';
import { readCookiesOnDemand } from './cookies.js';
import { serializersOnFirstUse, validatorsOnFirstUse } from './compile-on-use.js';
import { installErrorHandling, invalidInput } from './errors.js';
import { inputProblems } from './input-checks.js';
import { answerNoContent } from './no-content.js';
import { enforceRouteAccess } from './route-access.js';
import { securityHeaders } from './security-headers.js';
import { readSender } from './sender.js';
import { createValidatorCompiler } from './validation.js';

/**
 * Who is calling, and anything else an instance works out about a request before its route runs. A promise only
 * when something had to be waited for (a credential not seen recently).
 */
export type Identify = (
  request: FastifyRequest,
  reply: FastifyReply,
  route: FastifyRequest['routeOptions'],
) => void | Promise<void>;

/** The auth addon as a whole: while it runs, there are users to require. */
const AUTH = addonRef('auth');

/**
 * What every Fastify instance serving the API shares: AYON's 422 and error shapes, the caller on the request, its
 * sender as the context its hooks and handler run in (currentSender), cookies, and anonymous callers refused
 * before their input is read (as AYON does) unless a route is open to them (security: [] in its OpenAPI
 * description); routes that declare an access level (config.access) refuse the rest after it. Without the auth addon there are no users to require. What runs on every request runs in one hook,
 * and the hooks are callback-style, so a request that waits for nothing passes them without a promise or a turn:
 * a noticeable part of a light route's answer under load.
 */
export async function applyHttpConventions(
  app: FastifyInstance,
  services: ServiceRegistry,
  identify: Identify,
): Promise<void> {
  app.setValidatorCompiler(validatorsOnFirstUse(createValidatorCompiler()));
  app.setSerializerCompiler(serializersOnFirstUse());
  installErrorHandling(app);
  readEmptyJsonAsNoBody(app);
  readCookiesOnDemand(app);
  app.decorateRequest('user', null);
  app.decorateRequest('caller', {
    getter(this: FastifyRequest) {
      return requireUser(this);
    },
  });
  app.addHook('onRoute', answerNoContent);
  app.addHook('onRoute', enforceRouteAccess);
  const secure = securityHeaders();
  const refusal = (request: FastifyRequest, route: FastifyRequest['routeOptions']) => {
    if (request.user || !route.url?.startsWith('/api/') || !services.has(AUTH)) return undefined;
    if ((route.schema as { security?: unknown[] } | undefined)?.security?.length === 0) return undefined;
    return new Unauthorized('Not logged in');
  };
  app.addHook('onRequest', (request, reply, done) => {
    secure(request, reply);
    const route = request.routeOptions;
    let sender: Sender, waiting;
    try {
      sender = readSender(request);
      waiting = identify(request, reply, route);
    } catch (error) {
      return done(error as Error);
    }
    // The rest of the request runs in its sender's context (Fastify keeps it while it reads the body).
    const next = () => runAsSender(sender, () => done(refusal(request, route)));
    if (!waiting) return next();
    waiting.then(next, done);
  });
  // JSON bodies are checked as they are parsed (below); text from the URL here, before any route reads it.
  app.addHook('preValidation', (request, _reply, done) => {
    const problems = [...inputProblems(request.params, ['path']), ...inputProblems(request.query, ['query'])];
    done(problems.length ? invalidInput(problems) : undefined);
  });
}

/**
 * FastAPI reads an empty body as no body whatever its content type: clients whose sessions send
 * `Content-Type: application/json` on every request (logout, DELETE) must not get a 422 for it. What parses is
 * checked for values no route can store (see input-checks.ts).
 */
function readEmptyJsonAsNoBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parseJson(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      const problems = inputProblems(value, ['body']);
      done(problems.length ? invalidInput(problems) : null, problems.length ? undefined : value);
    });
  });
}
