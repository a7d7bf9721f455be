import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import {
  AYON_PACKAGE_FILE,
  Conflict,
  NotFound,
  ValidationFailed,
  newId,
  type AddonContext,
  type AddonInfo,
  type EventInput,
} from '@pipewright/sdk';
import { readAddonZip, unpackAddon, type AddonPackage } from './package-zip.js';
import { roleBundles } from './bundle-roles.js';

/** Largest addon package accepted, uploaded or downloaded. */
export const MAX_PACKAGE_BYTES = 1024 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 10 * 60 * 1000;

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

  get root(): string {
    return join(this.ctx.dataDir, 'addons');
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
    });
    this.track(id, () => this.place(id, pkg));
    return id;
  }

  /** Download a package from a URL this server can reach, then install it; both in the background. */
  async installFromUrl(url: string, user: string): Promise<string> {
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
      throw new ValidationFailed(
        [{ loc: ['query', 'url'], msg: 'must be an http or https URL', type: 'url_scheme' }],
        'Invalid addon URL',
      );
    }
    const id = await this.emit({
      topic: 'addon.install_from_url',
      status: 'in_progress',
      user,
      description: `Downloading ${url}`,
      summary: { url },
    });
    this.track(id, async () => {
      const pkg = readAddonZip(await this.download(url));
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

  /** Wait for installs still running (the server is shutting down). */
  async settle(): Promise<void> {
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

  /** Unpack beside the target, then swap it in, so a failed unpack never leaves half an addon behind. */
  private async place(eventId: string, pkg: AddonPackage): Promise<AddonInfo> {
    const { name, version } = pkg.manifest;
    const incoming = join(this.root, '.incoming', newId());
    try {
      await unpackAddon(pkg, incoming);
      await this.ctx.events.update(eventId, { progress: 75 });
      await this.ctx.runtime.unload(name, version);
      const folder = join(this.root, name, version);
      await rm(folder, { recursive: true, force: true });
      await mkdir(dirname(folder), { recursive: true });
      await rename(incoming, folder);
      return await this.ctx.runtime.load(folder);
    } finally {
      await rm(incoming, { recursive: true, force: true });
    }
  }

  private track(eventId: string, work: () => Promise<AddonInfo>): void {
    const job = (async () => {
      try {
        const addon = await work();
        await this.ctx.events.update(
          eventId,
          addon.isBroken
            ? {
                status: 'failed',
                description: `Installed ${addon.name} ${addon.version}, but it is broken: ${addon.reason}`,
              }
            : { status: 'finished', progress: 100, description: `Installed ${addon.name} ${addon.version}` },
        );
      } catch (error) {
        this.ctx.log.warn({ err: error }, 'addon install failed');
        await this.ctx.events
          .update(eventId, { status: 'failed', description: `Install failed: ${(error as Error).message}` })
          .catch(() => undefined);
      }
    })();
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }

  private async download(url: string): Promise<Buffer> {
    const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) }).catch((error) => {
      throw new Error(`${url} cannot be reached: ${(error as Error).cause ?? (error as Error).message}`);
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status} ${response.statusText}`);
    const size = Number(response.headers.get('content-length') ?? 0);
    if (size > MAX_PACKAGE_BYTES) throw new Error(`${url} is larger than ${MAX_PACKAGE_BYTES} bytes`);
    return Buffer.from(await response.arrayBuffer());
  }
}
