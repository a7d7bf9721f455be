import { AsyncLocalStorage } from 'node:async_hooks';
import type { RouteOptions } from 'fastify';
import { observeCommits } from '@pipewright/sdk';

// The crash tests' failpoint (TEST_FAILPOINT_HALT_AFTER_COMMIT=true, never on a studio's server). A request sent
// with `x-test-failpoint: halt-after-commit` stops dead once the first unit of work it opened commits: its
// connection is cut and nothing after the commit runs, not the handler's next line, not the unit's publishing.
// What the database holds then is what a crash at that instant would leave, so a test can prove that each write
// commits its change and its events together, for every addon, with one server process.

export const HALT_HEADER = 'x-test-failpoint';

const halting = new AsyncLocalStorage<{ cut: () => void }>();

/** Arm the failpoint: every route handler of the server runs in a context the commit observer can see. */
export function enableHaltAfterCommit(): (route: RouteOptions) => void {
  observeCommits(async () => {
    const request = halting.getStore();
    if (!request) return;
    request.cut();
    await new Promise(() => {}); // never resumes
  });
  return (route) => {
    const handler = route.handler;
    route.handler = function (request, reply) {
      if (request.headers[HALT_HEADER] !== 'halt-after-commit') return handler.call(this, request, reply);
      return halting.run({ cut: () => request.raw.socket.destroy() }, () =>
        handler.call(this, request, reply),
      );
    };
  };
}
