import type { FastifyBaseLogger } from 'fastify';
import type {
  AddonApp,
  AddonContext,
  AddonInfo,
  Database,
  EventBus,
  ProjectStorage,
  ServerIdentity,
  ServiceRef,
  ServiceRefs,
  ServicesOf,
} from '@pipewright/sdk';
import type { AddonRegistry, Lifetime } from './runtime.js';

/** Services offered by addons, each under its reference's id and remembered with the addon that provides it. */
export class ServiceRegistry {
  private readonly entries = new Map<string, { provider: string; service: unknown }>();

  provide<T>(provider: string, ref: ServiceRef<T>, service: T): void {
    if (ref.addon !== provider)
      throw new Error(
        `Addon "${provider}" provides the service "${ref.id}", which belongs to "${ref.addon}"`,
      );
    const existing = this.entries.get(ref.id);
    if (existing)
      throw new Error(
        `Addon "${provider}" provides the service "${ref.id}", already provided by "${existing.provider}"`,
      );
    this.entries.set(ref.id, { provider, service });
  }

  /** The services an addon's deps name; each provider was set up first, so a missing one is a fault of wiring. */
  resolve<D extends ServiceRefs>(consumer: string, deps: D): ServicesOf<D> {
    const services: Record<string, unknown> = {};
    for (const [key, ref] of Object.entries(deps)) {
      const entry = this.entries.get(ref.id);
      if (!entry || entry.provider !== ref.addon)
        throw new Error(
          `Addon "${consumer}" needs the service "${ref.id}" of "${ref.addon}", which is not provided`,
        );
      services[key] = entry.service;
    }
    return services as ServicesOf<D>;
  }

  /** A provided service (tests and the core's own wiring); throws when no running addon provides it. */
  get<T>(ref: ServiceRef<T>): T {
    const entry = this.entries.get(ref.id);
    if (!entry) throw new Error(`No running addon provides the service "${ref.id}"`);
    return entry.service as T;
  }

  /** Whether a running addon provides the service. */
  has(ref: ServiceRef<unknown>): boolean {
    return this.entries.has(ref.id);
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
  lifetime: Lifetime,
): AddonContext {
  // Subscriptions and hooks end with the addon, so an unloaded addon hears nothing more.
  const events: EventBus = {
    emit: (event) => kernel.events.emit(event),
    emitMany: (list) => kernel.events.emitMany(list),
    announce: (message) => kernel.events.announce(message),
    update: (id, changes, options) => kernel.events.update(id, changes, options),
    get: (id) => kernel.events.get(id),
    find: (lookup) => kernel.events.find(lookup),
    delivered: () => kernel.events.delivered(),
    onStored(hook) {
      const remove = kernel.events.onStored(hook);
      lifetime.unsubscribes.push(remove);
      return remove;
    },
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
    provide: (ref, service) => kernel.services.provide(addon.name, ref, service),
    addRequestHook: (hook) => void lifetime.requestHooks.push(hook),
    onClose: (fn) => void lifetime.closers.push(fn),
  };
}
