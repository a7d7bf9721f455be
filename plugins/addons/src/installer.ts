import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import {
  AYON_PACKAGE_FILE,
  Conflict,
  NotFound,
  PipewrightError,
  downloadToFile,
  downloadUrl,
  keepAlive,
  mayStillRun,
  thisProcess,
  type AddonContext,
  type AddonInfo,
  type EventChanges,
  type EventInput,
  type Static,
} from '@pipewright/sdk';
import { readAddonZip, unpackAddon, type AddonPackage } from './package-zip.js';
import { roleBundles } from './bundle-roles.js';
import type { InstallListItem } from './schemas.js';

/** Largest addon package accepted, uploaded or downloaded (AYON packages with client code run to hundreds of MB). */
export const MAX_PACKAGE_BYTES = 1024 * 1024 * 1024;
/**
 * Where installs download and unpack: inside the addons folder, so the same file system and moving a package into
 * place is one rename, but in a folder whose name starts with a dot, which the addon loader never scans.
 */
export const STAGING_FOLDER = '.staging';
const INSTALL_TOPICS = ['addon.install', 'addon.install_from_url'];
const INTERRUPTED =
  'Install failed: the server stopped before the install finished; install the package again';

/**
 * Installs addon packages into DATA_DIR/addons/{name}/{version}/ and loads them at once, without a restart.
 * Each install is an event (addon.install, or addon.install_from_url) that clients poll: in_progress, then
 * finished, or failed with the reason. An addon that installs but cannot be set up stays installed and is listed
 * as broken, so the operator sees why.
 */
export class AddonInstaller {
  private readonly running = new Set<Promise<void>>();
  /** Events this process emitted: the others follow them, this one already did the work. */
  private readonly own = new Set<string>();
  /** The process doing the installs, kept in their events' payload (never broadcast) for the next start to check. */
  private readonly worker = thisProcess();
  /** Stops downloads when the server shuts down. */
  private readonly stopping = new AbortController();

  constructor(private readonly ctx: AddonContext) {
    // Server processes sharing one data folder load and unload what another process installed or deleted.
    ctx.events.subscribe('addon.*', (message) => {
      const { addonName: name, addonVersion: version } = message.summary as Record<string, unknown>;
      if (this.own.has(message.id) || typeof name !== 'string' || typeof version !== 'string') return;
      if (message.topic === 'addon.deleted') return void ctx.runtime.unload(name, version);
      if (message.status !== 'finished' && message.status !== 'failed') return;
      const folder = join(this.root, name, version);
      if (existsSync(join(folder, 'package.json')) || existsSync(join(folder, AYON_PACKAGE_FILE)))
        return void ctx.runtime.load(folder);
    });
  }

  /** The last hundred installs, newest first: their events, read from the event log. */
  async recentInstalls(): Promise<Static<typeof InstallListItem>[]> {
    const events = await this.ctx.events.find({ topics: INSTALL_TOPICS, newestFirst: true, limit: 100 });
    return events.map((event) => ({
      id: event.id.replace(/-/g, ''),
      topic: event.topic as Static<typeof InstallListItem>['topic'],
      description: event.description,
      addonName: (event.summary.addonName as string | undefined) ?? null,
      addonVersion: (event.summary.addonVersion as string | undefined) ?? null,
      user: event.user,
      status: event.status,
      createdAt: event.createdAt,
      updatedAt: event.updatedAt,
    }));
  }

  get root(): string {
    return join(this.ctx.dataDir, 'addons');
  }

  private stagingOf(eventId: string): string {
    return join(this.root, STAGING_FOLDER, eventId);
  }

  /**
   * At start: an install left unfinished by a process that is gone (killed, crashed, its machine lost) is marked
   * failed, and staging folders no running install uses are removed. Runs before installed addons are loaded.
   */
  async recover(): Promise<void> {
    const unfinished = await this.ctx.events.find({
      topics: INSTALL_TOPICS,
      statuses: ['pending', 'in_progress'],
    });
    const running = new Set<string>();
    for (const row of unfinished) {
      const id = String(row.id).replace(/-/g, '');
      if (mayStillRun(row.payload.worker, new Date(row.updatedAt))) {
        running.add(id);
        continue;
      }
      // Marked as this process's own, so following other processes' installs does not act on it.
      this.own.add(id);
      await this.ctx.events.update(id, { status: 'failed', description: INTERRUPTED });
      this.ctx.log.warn(`addon install ${id} was interrupted by a server stop; marked failed`);
    }
    // .incoming: where earlier versions of the installer unpacked.
    await rm(join(this.root, '.incoming'), { recursive: true, force: true });
    const staging = join(this.root, STAGING_FOLDER);
    for (const entry of await readdir(staging).catch(() => [] as string[])) {
      if (!running.has(entry)) await rm(join(staging, entry), { recursive: true, force: true });
    }
  }

  /** Check the package now (a bad one is refused with 422), then install it in the background. */
  async installZip(zip: Buffer, user: string): Promise<string> {
    const pkg = readAddonZip(zip);
    this.refuseInternal(pkg.manifest.name);
    const id = await this.emit({
      topic: 'addon.install',
      status: 'in_progress',
      user,
      description: `Installing ${pkg.manifest.name} ${pkg.manifest.version}`,
      summary: { addonName: pkg.manifest.name, addonVersion: pkg.manifest.version },
      payload: { worker: this.worker },
    });
    this.track(id, () => this.place(id, pkg));
    return id;
  }

  /** Download a package from an http(s) URL, then install it; both in the background. Other schemes: 422. */
  async installFromUrl(url: string, user: string): Promise<string> {
    downloadUrl(url, ['query', 'url']);
    const id = await this.emit({
      topic: 'addon.install_from_url',
      status: 'in_progress',
      user,
      description: `Downloading ${url}`,
      summary: { url },
      payload: { worker: this.worker },
    });
    this.track(id, async () => {
      const file = join(this.stagingOf(id), 'package.zip');
      await mkdir(dirname(file), { recursive: true });
      // To disk as it arrives, never whole in memory while it downloads; read once the limit is known to hold.
      await downloadToFile(url, file, { maxBytes: MAX_PACKAGE_BYTES, signal: this.stopping.signal });
      const pkg = readAddonZip(await readFile(file));
      await rm(file, { force: true });
      this.refuseInternal(pkg.manifest.name);
      await this.ctx.events.update(id, {
        description: `Installing ${pkg.manifest.name} ${pkg.manifest.version}`,
        summary: { url, addonName: pkg.manifest.name, addonVersion: pkg.manifest.version },
        progress: 50,
      });
      return this.place(id, pkg);
    });
    return id;
  }

  /** Remove installed versions of an addon (every version when none is named); answers what was removed. */
  async remove(user: string, name: string, version?: string): Promise<string[]> {
    this.refuseInternal(name);
    const versions = this.ctx
      .addons()
      .filter((addon) => addon.name === name && addon.directory.startsWith(this.root + sep))
      .filter((addon) => !version || addon.version === version)
      .map((addon) => addon.version);
    if (versions.length === 0) {
      throw new NotFound(
        version ? `Addon ${name} ${version} is not installed` : `Addon ${name} is not installed`,
      );
    }
    const inUse = await this.bundlesUsing(name, versions);
    if (inUse.length) {
      throw new Conflict(`${inUse.join('; ')}: switch those bundles to another version before deleting it`);
    }
    for (const v of versions) {
      await this.ctx.runtime.unload(name, v);
      await rm(join(this.root, name, v), { recursive: true, force: true });
      await this.emit({
        topic: 'addon.deleted',
        user,
        description: `Deleted ${name} ${v}`,
        summary: { addonName: name, addonVersion: v },
      });
    }
    return versions;
  }

  /** Stop downloads and wait for installs still running (the server is shutting down). */
  async settle(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.running]);
  }

  private async emit(event: EventInput): Promise<string> {
    const { id } = await this.ctx.events.emit(event);
    this.own.add(id);
    return id;
  }

  private refuseInternal(name: string): void {
    if (this.ctx.addons().some((addon) => addon.name === name && addon.internal)) {
      throw new Conflict(
        `${name} is part of the server; an addon of that name cannot be installed or deleted`,
      );
    }
  }

  private async bundlesUsing(name: string, versions: string[]): Promise<string[]> {
    return (await roleBundles(this.ctx.db))
      .filter((bundle) => versions.includes(bundle.addons[name] ?? ''))
      .map((bundle) => `the ${bundle.role} bundle ${bundle.name} uses it`);
  }

  /**
   * Unpack into the install's staging folder, then swap it in: the old folder moves aside and the new one into
   * place, each with one rename, so the addons folder only ever holds whole packages. A process killed midway
   * leaves its staging folder, which the next start removes.
   */
  private async place(eventId: string, pkg: AddonPackage): Promise<AddonInfo> {
    const { name, version } = pkg.manifest;
    const staging = this.stagingOf(eventId);
    const incoming = join(staging, 'addon');
    await unpackAddon(pkg, incoming);
    await this.ctx.events.update(eventId, { progress: 75 });
    await this.ctx.runtime.unload(name, version);
    const folder = join(this.root, name, version);
    await mkdir(dirname(folder), { recursive: true });
    await rename(folder, join(staging, 'previous')).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(incoming, folder);
    return this.ctx.runtime.load(folder);
  }

  private track(eventId: string, work: () => Promise<AddonInfo>): void {
    const stopHeartbeat = keepAlive(this.ctx.events, eventId);
    const job = (async () => {
      let outcome: EventChanges;
      try {
        const addon = await work();
        outcome = addon.isBroken
          ? {
              status: 'failed',
              description: `Installed ${addon.name} ${addon.version}, but it is broken: ${addon.reason}`,
            }
          : { status: 'finished', progress: 100, description: `Installed ${addon.name} ${addon.version}` };
      } catch (error) {
        this.ctx.log.warn({ err: error }, 'addon install failed');
        // Our own errors say what went wrong in words fit for the event; others (a full disk, ...) may name paths.
        const reason =
          error instanceof PipewrightError
            ? error.message
            : 'the server could not write the package (see its log)';
        outcome = { status: 'failed', description: `Install failed: ${reason}` };
      }
      stopHeartbeat();
      // Cleared before the event ends, so whoever sees it end finds nothing of the install left behind.
      await rm(this.stagingOf(eventId), { recursive: true, force: true }).catch(() => undefined);
      await this.ctx.events.update(eventId, outcome).catch(() => undefined);
    })();
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }
}
