import type { preHandlerHookHandler, RouteOptions } from 'fastify';
import { requireAccess } from '@pipewright/sdk';

/**
 * A route that declares who may call it (`config: { access }`) refuses everyone else before its handler runs and
 * after its input is validated: AYON checks inside its handlers, so a bad body still answers 422 first.
 */
export function enforceRouteAccess(route: RouteOptions): void {
  const access = route.config?.access;
  if (!access) return;
  const check: preHandlerHookHandler = (request, _reply, done) => {
    try {
      requireAccess(request, access);
      done();
    } catch (error) {
      done(error as Error);
    }
  };
  const existing = route.preHandler ? [route.preHandler].flat() : [];
  route.preHandler = [check, ...existing];
}
