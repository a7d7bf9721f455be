import { addonPackage, currentUnitOfWork, defineAddon } from '@pipewright/sdk';
import { noticesRef } from '@pipewright/plugin-notices/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { Dispatcher } from './dispatcher.js';
import { studioMigrations } from './migrations.js';
import { webhookRoutes } from './routes.js';
import { WebhookService } from './service.js';
import { WebhookStore } from './store.js';

// Outbound webhooks: events sent on to other systems as they happen, signed as Standard Webhooks, retried on
// Standard Webhooks' schedule and logged. The transaction that stores an event enqueues what it owes each webhook,
// so nothing committed is lost; every server process sends what is due (WEBHOOK_TIMEOUT_MS per attempt).

const LOG_KEPT_MS = 14 * 24 * 3_600_000;
const HOUR = 3_600_000;

export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { projects: projectsRef, notices: noticesRef },
  migrations: { studio: studioMigrations },
  frontendModules: { webhooks_screens: ['./Webhooks'] },
  frontendScopes: { settings: { sidebar: 'Webhooks', access: 'manager' } },
  async setup(ctx, deps) {
    const store = new WebhookStore(ctx.db);
    const timeoutMs = Number(process.env.WEBHOOK_TIMEOUT_MS ?? 10_000);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
      throw new Error(
        `WEBHOOK_TIMEOUT_MS must be a number of milliseconds, not "${process.env.WEBHOOK_TIMEOUT_MS}"`,
      );
    const poke = () => dispatcher.poke();
    const webhooks = new WebhookService(ctx.db, store, deps, ctx.events, poke);
    const dispatcher = new Dispatcher(store, webhooks, ctx.log, { timeoutMs, pollMs: 1000 });
    ctx.events.onStored(async (events) => {
      if (!(await webhooks.enqueue(events))) return;
      // Sent once committed: the dispatcher reads with a connection of its own.
      const unit = currentUnitOfWork(ctx.db);
      if (unit) unit.afterCommit(poke);
      else poke();
    });
    // Another process changed a webhook: read them again.
    ctx.events.subscribe('webhook.changed', (_message, remote) => {
      if (remote) webhooks.forget();
    });
    const prune = () =>
      void store.prune(new Date(Date.now() - LOG_KEPT_MS)).catch((err) => ctx.log.error({ err }));
    prune();
    const pruning = setInterval(prune, HOUR);
    pruning.unref();
    dispatcher.start();
    ctx.onClose(async () => {
      clearInterval(pruning);
      await dispatcher.stop();
    });
    await ctx.app.register(webhookRoutes(webhooks));
  },
});
