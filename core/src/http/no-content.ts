import type { RouteOptions } from 'fastify';

/**
 * A route whose only success answer is 204 No Content (its response schema says so) answers it when its handler
 * returns nothing, so handlers need not build the empty reply themselves.
 */
export function answerNoContent(route: RouteOptions): void {
  const successes = Object.keys((route.schema?.response ?? {}) as object).filter((code) =>
    code.startsWith('2'),
  );
  if (successes.length !== 1 || successes[0] !== '204') return;
  const handler = route.handler;
  route.handler = async function (request, reply) {
    const result = await handler.call(this, request, reply);
    if (result === undefined && !reply.sent) reply.code(204);
    return result;
  };
}
