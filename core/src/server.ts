import { join } from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  API_VERSION,
  NotFound,
  addonRef,
  type AddonApp,
  type AddonInfo,
  type Database,
} from '@pipewright/sdk';
import type { ServerConfig } from './config.js';
import { openConfiguredDatabase, type OpenDatabase } from './storage/database.js';
import { startHousekeeping, type Housekeeping } from './storage/housekeeping.js';
import { ensureMigrationHistory, migrate } from './storage/migrations.js';
import { coreMigrations } from './storage/core-migrations.js';
import { createProjectStorage, migrateProjectSchemas } from './storage/project-storage.js';
import { CoreEventBus } from './events/bus.js';
import { connectRedisRelay } from './events/redis-relay.js';
import {
  discoverInternalAddons,
  discoverInternalAddonsFor,
  type DiscoveredAddon,
} from './addons/discover.js';
import { dependenciesOf, orderByDependencies, withDependencies } from './addons/order.js';
import { productionBundleAddons, settleDependencies } from './addons/selection.js';
import { createAddonContext, ServiceRegistry, type KernelParts } from './addons/context.js';
import { AddonRegistry, describe, newLifetime } from './addons/runtime.js';
import { answerFrameworkError } from './http/errors.js';
import { applyHttpConventions } from './http/conventions.js';
import { documentRoute } from './http/openapi.js';
import { namePluginsOnRegister } from './http/plugin-names.js';
import { requestLogger } from './http/request-logger.js';
import { enableHaltAfterCommit } from './failpoints.js';

export interface ServerOptions {
  config: ServerConfig;
  /** An already open database (tests); otherwise the configured one is opened. */
  database?: OpenDatabase;
  /** Run only these addons and what they depend on (plugin isolation in tests). */
  only?: string[];
  /** Addons loaded from elsewhere than plugins/ (installed addons, test fixtures). */
  extraAddons?: DiscoveredAddon[];
}

/** A running Pipewright core. */
export interface PipewrightServer {
  app: FastifyInstance;
  db: Database;
  database: OpenDatabase;
  events: CoreEventBus;
  config: ServerConfig;
  /** Every addon the server knows, as it is now. */
  readonly addons: AddonInfo[];
  runtime: AddonRegistry;
  services: ServiceRegistry;
  /** Vacuum and analyze of the embedded database (null on a PostgreSQL server, which does its own). */
  housekeeping: Housekeeping | null;
  /** Stop accepting requests, then close addons, Redis and the database. */
  close(): Promise<void>;
}

/** A URL with the value of any token query parameter blanked out, for logs. */
export function withoutToken(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[hidden]');
}

/** Where request handover keeps the caller the main app resolved, for an installed addon's own instance. */
const CALLER = Symbol('pipewright.caller');

/** Fastify's options for every instance serving the API. */
const fastifyOptions = (config: ServerConfig) => ({
  // request.ip is the client's own address unless the operator names the proxies in front (TRUST_PROXY): a client
  // must not choose the address the login throttle counts by sending X-Forwarded-For.
  // (Fastify takes a hop count too, though its types leave it out.)
  trustProxy: config.trustProxy as boolean | string,
  bodyLimit: 64 * 1024 * 1024,
  // Link type names (type|input|output) and long user names exceed Fastify's default of 100 characters.
  routerOptions: { maxParamLength: 512 },
  frameworkErrors: answerFrameworkError,
  // No log line per request unless the operator asks for an access log (ACCESS_LOG): two lines per request cost
  // about a third of a light route's throughput. Failed requests are logged by the error handler either way.
  logController: new LogController({ disableRequestLogging: !config.accessLog }),
  childLoggerFactory: requestLogger,
});

/** Open storage, run migrations, load the addons and answer a ready Fastify app (not yet listening). */
export async function createServer(options: ServerOptions): Promise<PipewrightServer> {
  const { config } = options;
  const app = Fastify({
    ...fastifyOptions(config),
    logger: {
      level: config.logLevel,
      // Players and download links carry the session token in ?token= (a <video> cannot send a header): it must
      // not end up in the request log.
      serializers: {
        req: (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
          method: request.method,
          url: withoutToken(request.url),
          host: request.hostname,
          remoteAddress: request.ip,
        }),
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  namePluginsOnRegister(app);
  const database = options.database ?? (await openConfiguredDatabase(config));
  const { db } = database;
  // A PostgreSQL server vacuums and analyzes on its own; the embedded one needs it done.
  const housekeeping = database.kind === 'pglite' ? startHousekeeping(db, app.log) : null;
  const events = new CoreEventBus(db, app.log);
  const runtime = new AddonRegistry();
  try {
    await ensureMigrationHistory(db);
    await migrate(db, { addon: 'core', schema: 'public', migrations: coreMigrations });
    if (config.redisUrl) {
      events.useRelay(
        await connectRedisRelay(
          config.redisUrl,
          config.redisChannel,
          (messages) => events.deliver(messages, true),
          app.log,
        ),
      );
    }

    const extras = options.extraAddons ?? [];
    // A core booted for some addons (a test's) imports only what they need; extras may need internal ones too.
    const internal = options.only
      ? await discoverInternalAddonsFor([
          ...options.only,
          ...extras.flatMap((extra) => dependenciesOf(extra.definition)),
        ])
      : await discoverInternalAddons();
    const available = [...internal, ...extras];
    const candidates = options.only
      ? withDependencies(wrap(available), options.only).map((w) => w.addon)
      : available;
    const { ready, refused } = settleDependencies(candidates);
    for (const { addon, reason } of refused)
      app.log.warn(`addon ${addon.definition.name} is not loaded: ${reason}`);
    const ordered = orderByDependencies(wrap(ready)).map((w) => w.addon);

    for (const addon of ordered) {
      await migrate(db, {
        addon: addon.definition.name,
        schema: 'public',
        migrations: addon.definition.migrations?.studio ?? [],
      });
    }
    await migrateProjectSchemas(db, runtimeMigrations(ordered));

    if (config.haltAfterCommitFailpoint) app.addHook('onRoute', enableHaltAfterCommit());
    const services = new ServiceRegistry();
    const kernel: KernelParts = {
      db,
      storage: { kind: database.kind, idleConnections: () => database.idleConnections() },
      events,
      log: app.log,
      projects: createProjectStorage(db, () => runtime.projectMigrations()),
      dataDir: config.dataDir,
      services,
      runtime,
      server: {
        apiVersion: API_VERSION,
        startedAt: new Date(),
        loginMessage: config.loginMessage,
        mail: config.smtpUrl ? { smtpUrl: config.smtpUrl, from: config.mailFrom } : null,
        publicUrl: config.publicUrl,
        passwordMinLength: config.passwordMinLength,
        graphql: { maxCost: config.graphqlMaxCost, maxAliases: config.graphqlMaxAliases },
        addonPython: config.addonPython,
      },
    };

    // The caller, for routes of addons loaded with the server: a route of an addon the production bundle switched
    // off answers 404 before anything else runs; then each addon's request hooks, in setup order, so a hook added
    // by a later addon still covers routes of earlier ones.
    await applyHttpConventions(app, services, (request, reply, route) => {
      const owner = (route.config as { addon?: string } | undefined)?.addon;
      if (owner && !runtime.isServed(owner))
        throw new NotFound(`Addon ${owner.replace('@', ' ')} is not enabled`);
      // An upgrade request answered by a route that is not a websocket (the web app answers any path) holds a
      // socket Node has handed over to the upgrade: nothing else would close it, and stopping the server would
      // wait for the client. It is closed once its answer is sent.
      if (request.headers.upgrade) reply.raw.once('finish', () => request.raw.socket.destroy());
      return runtime.runRequestHooks(request, reply);
    });
    await app.register(fastifyStatic, { root: config.dataDir, serve: false });
    await app.register(swagger, {
      transform: documentRoute,
      openapi: {
        info: {
          title: 'Pipewright',
          version: API_VERSION,
          description: 'Pipeline server API, compatible with AYON 1.11',
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer' },
            apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          },
        },
        security: [{ bearer: [] }, { apiKey: [] }],
      },
    });
    app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
    // Installed addons answer from their own Fastify instance: the caller is resolved here, then handed over. That
    // instance refuses anonymous callers by its own route's schema, so this route is open (security: []).
    app.all(
      '/api/addons/:addon_name/:addon_version/*',
      {
        schema: { hide: true, security: [] },
        onRequest: async (request, reply) => {
          const { addon_name: name, addon_version: version } = request.params as Record<string, string>;
          const entry = runtime.servedEntry(name, version);
          if (entry?.mount?.kind !== 'dynamic') return;
          (request.raw as any)[CALLER] = { user: request.user };
          reply.hijack();
          entry.mount.host.routing(request.raw, reply.raw);
        },
      },
      async (request) => {
        const { addon_name: name, addon_version: version } = request.params as Record<string, string>;
        throw new NotFound(`Addon ${name} ${version} is not installed or not enabled, or has no such route`);
      },
    );

    for (const addon of ordered) {
      const lifetime = newLifetime();
      runtime.addStatic(addon, null, lifetime);
      const { name, version } = addon.definition;
      const info = runtime.list().find((i) => i.name === name && i.version === version)!;
      const prefix = addon.internal ? '' : `/api/addons/${name}/${version}`;
      await app.register(
        async (scope) => {
          scope.addHook('onRoute', (route) => {
            route.schema = { ...route.schema, tags: route.schema?.tags ?? [info.title] };
            route.config = {
              ...(route.config as object),
              addon: `${name}@${version}`,
            } as typeof route.config;
          });
          const ctx = createAddonContext(kernel, info, scope as unknown as AddonApp, lifetime);
          services.provide(name, addonRef(name), info);
          await addon.definition.setup?.(ctx, services.resolve(name, addon.definition.deps ?? {}));
        },
        { prefix },
      );
    }

    for (const { addon, reason } of refused) runtime.addStatic(addon, reason, newLifetime());

    app.addHook('onClose', async () => {
      await runtime.closeAll();
      await events.close();
      await housekeeping?.stop();
      await database.close();
    });
    await app.ready();

    // Installed addons: each in its own instance, so it can come and go while the server runs.
    await runtime.start({
      events,
      readProductionBundle: () => productionBundleAddons(db),
      async mount(entry) {
        const { definition } = entry.addon;
        const { name, version } = definition;
        await migrate(db, { addon: name, schema: 'public', migrations: definition.migrations?.studio ?? [] });
        await migrateProjectSchemas(db, runtimeMigrations([entry.addon]));
        const host = Fastify({
          ...fastifyOptions(config),
          loggerInstance: app.log.child({ addon: name, version }),
        });
        try {
          await applyHttpConventions(host, services, (request) => {
            const caller = (request.raw as any)[CALLER];
            request.user = caller?.user ?? null;
          });
          const info = describe(entry.addon, { reason: null, enabled: true, production: false });
          await host.register(
            async (scope) => {
              const ctx = createAddonContext(kernel, info, scope as unknown as AddonApp, entry.lifetime);
              entry.lifetime.closers.push(() => services.withdraw(name));
              // Several versions of an installed addon may run at once: dependants get the first one's info.
              if (!services.has(addonRef(name))) services.provide(name, addonRef(name), info);
              await definition.setup?.(ctx, services.resolve(name, definition.deps ?? {}));
            },
            { prefix: `/api/addons/${name}/${version}` },
          );
          await host.ready();
          return host;
        } catch (error) {
          await host.close().catch(() => undefined);
          throw error;
        }
      },
    });
    // Another process changed the production bundle: apply it here too.
    events.subscribe('bundle.*', () => void runtime.applyProductionBundle().catch((e) => app.log.error(e)));
    await runtime.loadInstalled(join(config.dataDir, 'addons'));
    await events.publishUnpublished();
    for (const addon of runtime.list().filter((a) => a.isBroken && !a.internal)) {
      app.log.warn(`addon ${addon.name} ${addon.version} is broken: ${addon.reason}`);
    }
    return {
      app,
      db,
      database,
      events,
      config,
      get addons() {
        return runtime.list();
      },
      runtime,
      services,
      housekeeping,
      close: () => app.close(),
    };
  } catch (error) {
    await events.close().catch(() => undefined);
    await housekeeping?.stop();
    await database.close().catch(() => undefined);
    throw error;
  }
}

function runtimeMigrations(addons: DiscoveredAddon[]) {
  return addons.map((addon) => ({
    addon: addon.definition.name,
    migrations: addon.definition.migrations?.project ?? [],
  }));
}

function wrap(addons: DiscoveredAddon[]) {
  return addons.map((addon) => ({
    addon,
    name: addon.definition.name,
    dependsOn: dependenciesOf(addon.definition),
  }));
}
