import { dependenciesOf } from './order.js';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import semver from 'semver';
import type {
  AddonInfo,
  AddonRuntime,
  EventBus,
  Migration,
  PackageReader,
  RequestHook,
} from '@pipewright/sdk';
import { importAddon, type DiscoveredAddon } from './discover.js';

// Which addons the server runs, kept while it runs. Addons given at boot (the internal areas, test fixtures) are
// set up once in the main app. Installed addons (the addons directory) each get their own Fastify instance, so
// installing, upgrading or deleting one needs no restart: the main app hands their requests over. The production
// bundle is applied on every request: an addon it sets to null answers 404 until the bundle changes again.

/** How an addon is mounted: in the main app at boot, or in a Fastify instance of its own (installed addons). */
export type Mount = { kind: 'static' } | { kind: 'dynamic'; host: FastifyInstance };

/** What the addon left behind that must go when it is unloaded. */
export interface Lifetime {
  closers: (() => Promise<void> | void)[];
  requestHooks: RequestHook[];
  unsubscribes: (() => void)[];
}

export interface AddonEntry {
  addon: DiscoveredAddon;
  /** Why it does not run at all: an import or setup failure, a dependency missing when it was set up. */
  problem: string | null;
  mount: Mount | null;
  lifetime: Lifetime;
}

/** What the registry needs from the kernel to set up an installed addon. */
export interface DynamicLoader {
  /** Run migrations and setup in a new Fastify instance; answers the instance (closed again on failure). */
  mount(entry: AddonEntry): Promise<FastifyInstance>;
  readProductionBundle(): Promise<Record<string, string | null> | null>;
  events: EventBus;
}

export const newLifetime = (): Lifetime => ({ closers: [], requestHooks: [], unsubscribes: [] });
const keyOf = (name: string, version: string) => `${name}@${version}`;

export class AddonRegistry implements AddonRuntime {
  private readonly entries: AddonEntry[] = [];
  private bundle: Record<string, string | null> | null = null;
  /** name@version of the addons whose routes answer now, and name -> the version production uses. */
  private served = new Set<string>();
  private production = new Map<string, string>();
  private infos: AddonInfo[] = [];
  private servedHooks: RequestHook[][] = [];
  private loader: DynamicLoader | null = null;
  private readonly readers: PackageReader[] = [];

  /** Addons set up in the main app at boot (or refused at boot, with the reason). */
  addStatic(addon: DiscoveredAddon, problem: string | null, lifetime: Lifetime): void {
    this.entries.push({ addon, problem, mount: problem ? null : { kind: 'static' }, lifetime });
    this.refresh();
  }

  /** Called once the main app is ready: from then on installed addons can be loaded. */
  async start(loader: DynamicLoader): Promise<void> {
    this.loader = loader;
    this.bundle = await loader.readProductionBundle();
    this.refresh();
  }

  list(): AddonInfo[] {
    return this.infos;
  }

  /** The addon whose routes answer under this name and version, if it is installed and switched on. */
  servedEntry(name: string, version: string): AddonEntry | undefined {
    if (!this.served.has(keyOf(name, version))) return undefined;
    return this.entries.find(
      (e) => e.addon.definition.name === name && e.addon.definition.version === version,
    );
  }

  /**
   * Run the request hooks of the addons that answer, in setup order, each after the one before has finished; a
   * promise only from the first hook that has to wait. The lists (one per addon) are worked out when what answers
   * changes (refresh), and kept by reference so hooks an addon adds later are included.
   */
  runRequestHooks(request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    return runInOrder(this.servedHooks, request, reply, 0, 0);
  }

  isServed(key: string): boolean {
    return this.served.has(key);
  }

  /** Project migrations of every addon that was set up, in setup order. */
  projectMigrations(): { addon: string; migrations: Migration[] }[] {
    return this.entries
      .filter((e) => e.mount)
      .map((e) => ({
        addon: e.addon.definition.name,
        migrations: e.addon.definition.migrations?.project ?? [],
      }));
  }

  addPackageReader(reader: PackageReader): void {
    this.readers.push(reader);
  }

  async applyProductionBundle(): Promise<void> {
    if (!this.loader) return;
    this.bundle = await this.loader.readProductionBundle();
    this.refresh();
  }

  async load(directory: string): Promise<AddonInfo> {
    if (!this.loader) throw new Error('The server is not started yet');
    let addon: DiscoveredAddon;
    try {
      addon = await importAddon(directory, false, this.readers);
    } catch (error) {
      const name = directory.split('/').slice(-2);
      addon = {
        definition: { name: name[0] ?? 'unknown', version: name[1] ?? '0.0.0', title: name[0] ?? 'unknown' },
        directory,
        internal: false,
        loadError: (error as Error).message,
      };
    }
    const { name, version } = addon.definition;
    await this.unload(name, version);
    const entry: AddonEntry = { addon, problem: null, mount: null, lifetime: newLifetime() };
    this.entries.push(entry);
    if (addon.loadError) entry.problem = `could not be loaded: ${addon.loadError}`;
    else if (
      this.entries.some((e) => e !== entry && e.addon.definition.name === name && e.mount?.kind === 'static')
    )
      entry.problem = `${name} is part of the server and cannot be installed over`;
    else {
      const missing = dependenciesOf(addon.definition).filter(
        (d) => !this.entries.some((e) => e.mount && e.addon.definition.name === d),
      );
      if (missing.length) entry.problem = `needs ${missing.join(', ')}, which is not installed`;
    }
    if (!entry.problem) {
      try {
        entry.mount = { kind: 'dynamic', host: await this.loader.mount(entry) };
      } catch (error) {
        await this.release(entry);
        entry.problem = `setup failed: ${(error as Error).message}`;
      }
    }
    this.refresh();
    return this.infos.find((i) => i.name === name && i.version === version)!;
  }

  async unload(name: string, version: string): Promise<boolean> {
    const index = this.entries.findIndex(
      (e) =>
        e.addon.definition.name === name &&
        e.addon.definition.version === version &&
        e.mount?.kind !== 'static' &&
        !e.addon.internal,
    );
    if (index < 0) return false;
    const [entry] = this.entries.splice(index, 1);
    this.refresh();
    await this.release(entry!);
    return true;
  }

  /**
   * Every installed addon version under root ({name}/{version}/), dependencies first as far as they resolve.
   * Folders whose name starts with a dot are the installer's (staging, half-unpacked packages): never loaded.
   */
  async loadInstalled(root: string): Promise<void> {
    const folders: string[] = [];
    for (const name of await readdir(root, { withFileTypes: true }).catch(() => [])) {
      if (!name.isDirectory() || name.name.startsWith('.')) continue;
      for (const version of await readdir(join(root, name.name), { withFileTypes: true })) {
        if (version.isDirectory() && !version.name.startsWith('.'))
          folders.push(join(root, name.name, version.name));
      }
    }
    // Load in rounds: an addon whose dependency is installed too waits for it.
    const pending = (
      await Promise.all(folders.map((f) => importAddon(f, false, this.readers).catch(() => null)))
    ).map((a, i) => ({ dir: folders[i]!, addon: a }));
    while (pending.length) {
      const loaded = new Set(this.entries.filter((e) => e.mount).map((e) => e.addon.definition.name));
      const ready = pending.findIndex(
        (p) => !p.addon || dependenciesOf(p.addon.definition).every((d) => loaded.has(d)),
      );
      const [next] = pending.splice(ready < 0 ? 0 : ready, 1);
      await this.load(next!.dir);
    }
  }

  /** Stop everything: installed addons' instances and every addon's closers, last set up first. */
  async closeAll(): Promise<void> {
    for (const entry of [...this.entries].reverse()) await this.release(entry);
  }

  private async release(entry: AddonEntry): Promise<void> {
    const { lifetime } = entry;
    lifetime.unsubscribes.splice(0).forEach((unsubscribe) => unsubscribe());
    for (const close of lifetime.closers.splice(0).reverse()) await close();
    if (entry.mount?.kind === 'dynamic') await entry.mount.host.close();
  }

  /** Recompute what answers: not switched off by the production bundle, set up, and its dependencies answer. */
  private refresh(): void {
    const off = (e: AddonEntry) => this.bundle?.[e.addon.definition.name] === null;
    let running = this.entries.filter((e) => e.mount && !off(e));
    const blocked = new Map<AddonEntry, string>();
    for (;;) {
      const names = new Set(running.map((e) => e.addon.definition.name));
      const stuck = running.filter((e) => dependenciesOf(e.addon.definition).some((d) => !names.has(d)));
      if (stuck.length === 0) break;
      for (const e of stuck) {
        const missing = dependenciesOf(e.addon.definition).filter((d) => !names.has(d));
        blocked.set(e, `needs ${missing.join(', ')}, which is not enabled`);
      }
      running = running.filter((e) => !stuck.includes(e));
    }
    this.served = new Set(running.map((e) => keyOf(e.addon.definition.name, e.addon.definition.version)));
    this.servedHooks = running.map((e) => e.lifetime.requestHooks);
    // Production uses the version the bundle names, else the newest one that runs.
    this.production = new Map();
    for (const e of running) {
      const { name, version } = e.addon.definition;
      const wanted = this.bundle?.[name];
      const current = this.production.get(name);
      if (typeof wanted === 'string') {
        if (wanted === version) this.production.set(name, version);
      } else if (!current || semver.gt(version, current, { loose: true })) this.production.set(name, version);
    }
    this.infos = this.entries.map((e) => {
      const { name, version } = e.addon.definition;
      const reason = e.problem ?? blocked.get(e) ?? null;
      return describe(e.addon, {
        reason,
        enabled: this.served.has(keyOf(name, version)),
        production: this.production.get(name) === version,
      });
    });
  }
}

/** The public description of an addon, as GET /api/addons and the other areas see it. */
export function describe(
  addon: DiscoveredAddon,
  state: { reason: string | null; enabled: boolean; production: boolean },
): AddonInfo {
  const d = addon.definition;
  const broken = state.reason !== null;
  return {
    name: d.name,
    version: d.version,
    title: d.title,
    description: d.description ?? '',
    internal: addon.internal,
    directory: addon.directory,
    dependsOn: dependenciesOf(d),
    frontendScopes: d.frontendScopes ?? {},
    frontendModules: d.frontendModules ?? {},
    services: d.services ?? {},
    hasSettings: Boolean(d.settings?.studio ?? d.settings?.model),
    hasSiteSettings: Boolean(d.settings?.site ?? d.settings?.siteModel),
    settingsSchema: d.settings?.studio ?? null,
    siteSettingsSchema: d.settings?.site ?? null,
    settingsModel: d.settings?.model ?? null,
    siteSettingsModel: d.settings?.siteModel ?? null,
    addonType: d.addonType ?? 'server',
    projectCanOverrideAddonVersion: d.projectCanOverrideAddonVersion ?? false,
    isBroken: broken,
    reason: state.reason,
    enabled: state.enabled,
    production: state.production,
    // A broken addon was never set up, so it offers no actions.
    ...(d.actions && !broken ? { actions: d.actions } : {}),
  };
}

/** Run hooks from lists[list][next] on, each after the one before; a promise only once one has to wait. */
function runInOrder(
  lists: readonly RequestHook[][],
  request: FastifyRequest,
  reply: FastifyReply,
  list: number,
  next: number,
): void | Promise<void> {
  for (; list < lists.length; list++, next = 0) {
    for (; next < lists[list].length; next++) {
      const waiting = lists[list][next](request, reply);
      if (waiting) return waiting.then(() => runInOrder(lists, request, reply, list, next + 1));
    }
  }
}
