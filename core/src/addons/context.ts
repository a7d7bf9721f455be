import type { FastifyBaseLogger } from 'fastify';
import type {
  AddonApp,
  AddonContext,
  AddonInfo,
  Database,
  EventBus,
  ProjectStorage,
  ServerIdentity,
  ServiceMap,
} from '@pipewright/sdk';
import type { AddonRegistry, Lifetime } from './runtime.js';

/** Services offered by addons, each remembered with the addon that provides it. */
export class ServiceRegistry {
  private readonly entries = new Map<string, { provider: string; service: unknown }>();

  provide(provider: string, name: string, service: unknown): void {
    const existing = this.entries.get(name);
    if (existing)
      throw new Error(
        `Addon "${provider}" provides the service "${name}", already provided by "${existing.provider}"`,
      );
    this.entries.set(name, { provider, service });
  }

  /** A service for a consumer that may only use what its declared dependencies provide. */
  use(consumer: string, allowedProviders: Set<string>, name: string): unknown {
    const entry = this.entries.get(name);
    if (!entry)
      throw new Error(`Addon "${consumer}" uses the service "${name}", which no enabled addon provides`);
    if (!allowedProviders.has(entry.provider)) {
      throw new Error(
        `Addon "${consumer}" uses the service "${name}" of "${entry.provider}" without declaring it in dependsOn`,
      );
    }
    return entry.service;
  }

  get(name: string): unknown {
    return this.entries.get(name)?.service;
  }

  /** Forget the services an addon provided (it was unloaded). */
  withdraw(provider: string): void {
    for (const [name, entry] of this.entries) if (entry.provider === provider) this.entries.delete(name);
  }
}

/** What the core shares with every addon's context. */
export interface KernelParts {
  db: Database;
  storage: AddonContext['storage'];
  events: EventBus;
  log: FastifyBaseLogger;
  projects: ProjectStorage;
  dataDir: string;
  services: ServiceRegistry;
  runtime: AddonRegistry;
  server: ServerIdentity;
}

/** Build the context one addon's setup receives. */
export function createAddonContext(
  kernel: KernelParts,
  addon: AddonInfo,
  app: AddonApp,
  dependencies: Set<string>,
  lifetime: Lifetime,
): AddonContext {
  // Subscriptions end with the addon, so an unloaded addon hears nothing more.
  const events: EventBus = {
    emit: (event) => kernel.events.emit(event),
    emitMany: (list) => kernel.events.emitMany(list),
    announce: (message) => kernel.events.announce(message),
    update: (id, changes) => kernel.events.update(id, changes),
    get: (id) => kernel.events.get(id),
    delivered: () => kernel.events.delivered(),
    subscribe(pattern, handler) {
      const unsubscribe = kernel.events.subscribe(pattern, handler);
      lifetime.unsubscribes.push(unsubscribe);
      return unsubscribe;
    },
  };
  return {
    addon,
    server: kernel.server,
    app,
    db: kernel.db,
    storage: kernel.storage,
    events,
    log: kernel.log.child({ addon: addon.name }),
    projects: kernel.projects,
    dataDir: kernel.dataDir,
    addons: () => kernel.runtime.list(),
    runtime: kernel.runtime,
    provide: (name, service) => kernel.services.provide(addon.name, name as string, service),
    use: <K extends keyof ServiceMap>(name: K) =>
      kernel.services.use(addon.name, dependencies, name as string) as ServiceMap[K],
    addRequestHook: (hook) => void lifetime.requestHooks.push(hook),
    onClose: (fn) => void lifetime.closers.push(fn),
  };
}
