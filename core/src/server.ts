import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  API_VERSION,
  Unauthorized,
  type AddonApp,
  type AddonInfo,
  type Database,
  type RequestHook,
} from '@pipewright/sdk';
import type { ServerConfig } from './config.js';
import { openConfiguredDatabase, type OpenDatabase } from './storage/database.js';
import { ensureMigrationHistory, migrate } from './storage/migrations.js';
import { coreMigrations } from './storage/core-migrations.js';
import { createProjectStorage, migrateProjectSchemas } from './storage/project-storage.js';
import { CoreEventBus, connectRedisRelay } from './events/bus.js';
import { discoverInternalAddons, type DiscoveredAddon } from './addons/discover.js';
import { orderByDependencies, withDependencies } from './addons/order.js';
import { productionBundleAddons, selectActive } from './addons/selection.js';
import { createAddonContext, ServiceRegistry, type KernelParts } from './addons/context.js';
import { createValidatorCompiler } from './http/validation.js';
import { installErrorHandling } from './http/errors.js';
import { readSender } from './http/sender.js';

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
  addons: AddonInfo[];
  services: ServiceRegistry;
  /** Stop accepting requests, then close addons, Redis and the database. */
  close(): Promise<void>;
}

function describe(addon: DiscoveredAddon, broken: string | null = null): AddonInfo {
  const d = addon.definition;
  return {
    name: d.name,
    version: d.version,
    title: d.title,
    description: d.description ?? '',
    internal: addon.internal,
    directory: addon.directory,
    dependsOn: d.dependsOn ?? [],
    frontendScopes: d.frontendScopes ?? {},
    frontendModules: d.frontendModules ?? {},
    services: d.services ?? {},
    hasSettings: Boolean(d.settings?.studio),
    hasSiteSettings: Boolean(d.settings?.site),
    isBroken: broken !== null,
    reason: broken,
    // A broken addon was never set up, so it offers no actions.
    ...(d.actions && broken === null ? { actions: d.actions } : {}),
  };
}

/** Every addon this one may take services from: its dependencies, transitively. */
function dependencyClosure(name: string, byName: Map<string, DiscoveredAddon>): Set<string> {
  const closure = new Set<string>();
  const walk = (current: string) => {
    for (const dependency of byName.get(current)?.definition.dependsOn ?? []) {
      if (!closure.has(dependency)) {
        closure.add(dependency);
        walk(dependency);
      }
    }
  };
  walk(name);
  return closure;
}

/** Open storage, run migrations, load the active addons and answer a ready Fastify app (not yet listening). */
export async function createServer(options: ServerOptions): Promise<PipewrightServer> {
  const { config } = options;
  const app = Fastify({
    logger: { level: config.logLevel },
    trustProxy: true,
    bodyLimit: 64 * 1024 * 1024,
    // Link type names (type|input|output) and long user names exceed Fastify's default of 100 characters.
    routerOptions: { maxParamLength: 512 },
  }).withTypeProvider<TypeBoxTypeProvider>();
  const database = options.database ?? (await openConfiguredDatabase(config));
  const { db } = database;
  const events = new CoreEventBus(db, app.log);
  try {
    await ensureMigrationHistory(db);
    await migrate(db, { addon: 'core', schema: 'public', migrations: coreMigrations });
    if (config.redisUrl) {
      events.useRelay(
        await connectRedisRelay(config.redisUrl, config.redisChannel, (m) => events.deliver(m), app.log),
      );
    }

    const extras = options.extraAddons ?? [];
    const available = [...(await discoverInternalAddons()), ...extras];
    const candidates = options.only
      ? withDependencies(wrap(available), options.only).map((w) => w.addon)
      : available;
    const onByDefault = (addon: DiscoveredAddon) => addon.internal || extras.includes(addon);
    const { active, skipped } = selectActive(candidates, await productionBundleAddons(db), onByDefault);
    for (const { addon, reason } of skipped)
      app.log.warn(`addon ${addon.definition.name} is not loaded: ${reason}`);
    const ordered = orderByDependencies(wrap(active)).map((w) => w.addon);
    const byName = new Map(ordered.map((addon) => [addon.definition.name, addon]));

    for (const addon of ordered) {
      await migrate(db, {
        addon: addon.definition.name,
        schema: 'public',
        migrations: addon.definition.migrations?.studio ?? [],
      });
    }
    const projectMigrationSets = ordered.map((addon) => ({
      addon: addon.definition.name,
      migrations: addon.definition.migrations?.project ?? [],
    }));
    await migrateProjectSchemas(db, projectMigrationSets);

    const infos = [
      ...ordered.map((addon) => describe(addon)),
      ...skipped.map(({ addon, reason }) => describe(addon, reason)),
    ];
    const kernel: KernelParts = {
      db,
      storage: { kind: database.kind, idleConnections: () => database.idleConnections() },
      events,
      log: app.log,
      projects: createProjectStorage(() => projectMigrationSets),
      dataDir: config.dataDir,
      services: new ServiceRegistry(),
      requestHooks: [] as RequestHook[],
      closers: [],
      addons: () => infos,
      server: { apiVersion: API_VERSION, startedAt: new Date(), loginMessage: config.loginMessage },
    };

    app.setValidatorCompiler(createValidatorCompiler());
    installErrorHandling(app);
    app.decorateRequest('user', null);
    app.decorateRequest('sender', null as any);
    await app.register(cookie);
    await app.register(fastifyStatic, { root: config.dataDir, serve: false });
    await app.register(swagger, {
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
    // One hook runs the addons' request hooks, so a hook added by a later addon still covers routes of earlier ones.
    app.addHook('onRequest', async (request, reply) => {
      readSender(request);
      for (const hook of kernel.requestHooks) await hook(request, reply);
    });
    // Anonymous callers of the API are refused before their input is read, as AYON does; a route open to them says
    // so in its OpenAPI description (security: []). Routes still check who else may call them. Without an addon
    // that authenticates (the 'auth' service) there are no users to require.
    app.addHook('preValidation', async (request) => {
      const url = request.routeOptions.url;
      if (request.user || !url?.startsWith('/api/') || !kernel.services.get('auth')) return;
      if ((request.routeOptions.schema as { security?: unknown[] } | undefined)?.security?.length === 0)
        return;
      throw new Unauthorized('Not logged in');
    });
    app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());

    for (const addon of ordered) {
      const info = infos.find((i) => i.name === addon.definition.name)!;
      const prefix = addon.internal ? '' : `/api/addons/${info.name}/${info.version}`;
      await app.register(
        async (scope) => {
          scope.addHook('onRoute', (route) => {
            route.schema = { ...route.schema, tags: route.schema?.tags ?? [info.title] };
          });
          const ctx = createAddonContext(
            kernel,
            info,
            scope as unknown as AddonApp,
            dependencyClosure(info.name, byName),
          );
          await addon.definition.setup?.(ctx);
        },
        { prefix },
      );
    }

    app.addHook('onClose', async () => {
      for (const close of kernel.closers.reverse()) await close();
      await events.close();
      await database.close();
    });
    await app.ready();
    return {
      app,
      db,
      database,
      events,
      config,
      addons: infos,
      services: kernel.services,
      close: () => app.close(),
    };
  } catch (error) {
    await events.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}

function wrap(addons: DiscoveredAddon[]) {
  return addons.map((addon) => ({
    addon,
    name: addon.definition.name,
    dependsOn: addon.definition.dependsOn,
  }));
}
