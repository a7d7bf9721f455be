import type { FastifyInstance } from 'fastify';
import { parseCookie } from 'cookie';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's cookies, parsed when first read. */
    readonly cookies: Record<string, string | undefined>;
  }
}

const PARSED = Symbol('pipewright.cookies');

/**
 * request.cookies, read from the Cookie header on first use. Only the web app's session cookie is ever read, and
 * most requests carry a bearer token instead: a parse on every request (and a reply hook to write cookies no route
 * sets) cost more than the rest of a light route's hooks.
 */
export function readCookiesOnDemand(app: FastifyInstance): void {
  app.decorateRequest('cookies', {
    getter(this: { headers: { cookie?: string }; [PARSED]?: Record<string, string | undefined> }) {
      return (this[PARSED] ??= this.headers.cookie ? parseCookie(this.headers.cookie) : {});
    },
  });
}
