import { addonPackage, defineAddon } from '@pipewright/sdk';
import { ConfigFileStore } from './config-files.js';
import { configRoutes } from './config-routes.js';
import { ProductionMetrics } from './metrics.js';
import { studioMigrations } from './migrations.js';
import { EventLoopLag, RequestCounters, processFamilies } from './prometheus.js';
import { RESTART_REQUESTED, RestartCoordinator, RestartFlag, restartAllowed } from './restart.js';
import { ServerConfigStore, serverConfigSchema } from './server-config.js';
import { SiteRegistry } from './sites.js';
import { systemRoutes } from './routes.js';
import { authRef } from '@pipewright/plugin-auth/api';
import { eventLogRef } from '@pipewright/plugin-events/api';
import { systemRef } from './api.js';
import { usersRef } from '@pipewright/plugin-users/api';
import type { SystemService } from './api.js';

export type { ProjectMetricsCollector } from './service.js';
export type { SystemService };

// The server about itself: its configuration (studio name, login page), whether it needs a restart, which client
// sites talk to it, and how it and the studio are doing (metrics). It sits low in the dependency order (auth, users
// and the event log only) so that any addon can depend on it to raise the restart flag or add project metrics.
//
// PIPEWRIGHT_ALLOW_RESTART is read here, once, at setup: addons have no configuration object of their own yet.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { users: usersRef, auth: authRef, events: eventLogRef },
  migrations: { studio: studioMigrations },
  async setup(ctx, deps) {
    const config = new ServerConfigStore(
      ctx.db,
      ctx.events,
      ctx.log,
      serverConfigSchema(ctx.server.loginMessage ?? ''),
    );
    const restart = new RestartFlag(ctx.db, ctx.events);
    // This process runs whatever needed the restart, so a flag raised before it started is done with.
    await restart.clearIfRaisedBefore(ctx.server.startedAt);
    const sites = new SiteRegistry(ctx.db);
    const metrics = new ProductionMetrics({
      db: ctx.db,
      users: deps.users,
      events: deps.events,
      sites,
      log: ctx.log,
      server: ctx.server,
      storage: ctx.storage,
      addons: ctx.addons,
      schemaName: ctx.projects.schemaName,
    });

    // The host stops on SIGTERM (core/src/main.ts closes the server, then exits) and its supervisor starts it again.
    const coordinator = new RestartCoordinator(
      restartAllowed(process.env.PIPEWRIGHT_ALLOW_RESTART),
      () => process.kill(process.pid, 'SIGTERM'),
      ctx.log,
    );
    const unsubscribe = ctx.events.subscribe(RESTART_REQUESTED, (message) =>
      coordinator.requested(message.user),
    );

    // Every request of the server: count it when it is answered, and note the client site it comes from.
    const counters = new RequestCounters();
    const lag = new EventLoopLag();
    ctx.addRequestHook((request, reply) => {
      const started = process.hrtime.bigint();
      const route = request.routeOptions.url;
      reply.raw.once('finish', () => {
        counters.record(
          request.method,
          route,
          reply.statusCode,
          Number(process.hrtime.bigint() - started) / 1e9,
        );
      });
      // Bookkeeping must never cost the request itself.
      return sites
        .seen(request)
        ?.catch((error) => request.log.warn({ err: error }, 'could not record the client site'));
    });
    ctx.onClose(() => {
      unsubscribe();
      coordinator.cancel();
      lag.close();
    });

    const system: SystemService = {
      requireRestart: (reason) => restart.set(true, reason.slice(0, 1000)),
      restartStatus: () => restart.status(),
      serverConfig: () => config.get(),
      addProjectMetrics: (collector) => metrics.addProjectCollector(collector),
      userSites: (userName, currentSiteId) => sites.ofUser(userName, currentSiteId),
    };
    ctx.provide(systemRef, system);

    await ctx.app.register(
      systemRoutes({
        metrics,
        systemFamilies: () => [
          ...processFamilies(ctx.server.startedAt),
          ...lag.families(),
          {
            name: 'pipewright_db_pool_idle_connections',
            help: 'Free connections of the database pool (the embedded database has one).',
            type: 'gauge',
            samples: [{ labels: { database: ctx.storage.kind }, value: ctx.storage.idleConnections() }],
          },
          ...counters.families(),
        ],
        restart,
        sites,
      }),
    );
    await ctx.app.register(configRoutes(config, ConfigFileStore.under(ctx.dataDir)));
  },
});
