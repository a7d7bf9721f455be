import type { FastifyInstance } from 'fastify';

const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * Fastify names a plugin that has no display name by searching the whole module cache for it, on every register:
 * thousands of modules under Jest, where that search was 6% of a test run. A plugin registered on this app or any
 * scope below it gets its function's own name instead (what Fastify falls back to anyway for a plugin that is not
 * a module's export, as none of ours is).
 */
export function namePluginsOnRegister(app: FastifyInstance): void {
  const register = app.register;
  // Scopes are created from their parent (Object.create), so they inherit this register.
  app.register = function (this: FastifyInstance, plugin: unknown, options?: unknown) {
    if (typeof plugin === 'function' && !(DISPLAY_NAME in plugin))
      Object.defineProperty(plugin, DISPLAY_NAME, { value: plugin.name || 'anonymous plugin' });
    return (register as (...args: unknown[]) => unknown).call(this, plugin, options);
  } as FastifyInstance['register'];
}
