import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet would set, worked out once. @fastify/helmet builds a new helmet middleware (parsing the whole
 * Content-Security-Policy again) for every request, which cost about a seventh of a light route's time; the answer
 * is the same for every request, so it is computed at start-up and copied onto each response.
 */
export function securityHeaders(options: HelmetOptions): [string, string][] {
  const headers: [string, string][] = [];
  const collect = {
    setHeader: (name: string, value: string) => void headers.push([name, String(value)]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(options)({} as never, collect, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** Set these headers on every answer, as early as helmet did (a route may still replace one, such as its own CSP). */
export function applySecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
