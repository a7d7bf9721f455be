import { sql } from 'kysely';
import {
  API_VERSION,
  isoTime,
  NotFound,
  PipewrightError,
  type AddonInfo,
  type Database,
  type Static,
} from '@pipewright/sdk';
import type {
  Catalogue,
  CatalogueAddon,
  CatalogueRelease,
  CatalogueSource,
  CatalogueVersion,
} from './catalogue.js';
import type {
  MarketAddonDetail,
  MarketAddonListItem,
  MarketAddonVersionDetail,
  ReleaseInfo,
  ReleaseListItem,
} from './schemas.js';
import { compareVersions, highest, satisfies } from './versions.js';

/** The part of the connect addon's ynputCloud service the market uses. */
export interface CloudCaller {
  request(
    method: 'GET' | 'POST',
    path: string,
    options?: { query?: Record<string, string> },
  ): Promise<Record<string, unknown>>;
  baseUrl(): string;
}

/** What this server has: installed addon versions, and the versions the production bundle uses. */
interface Local {
  installed: Map<string, string[]>;
  production: Record<string, string | null>;
}

type ListItem = Static<typeof MarketAddonListItem>;

/**
 * The market as this server sees it: the catalogue combined with what is installed and in production. An addon
 * version is compatible when this server's version (the AYON API version it speaks) meets its ayonVersion.
 */
export class MarketService {
  constructor(
    private readonly catalogue: CatalogueSource,
    private readonly db: Database,
    private readonly addons: () => AddonInfo[],
    private readonly cloud: CloudCaller,
    private readonly serverVersion: string = API_VERSION,
  ) {}

  async list(): Promise<{ addons: ListItem[] }> {
    const [catalogue, local] = await Promise.all([this.catalogue.current(), this.local()]);
    return { addons: [...catalogue.addons.values()].map((addon) => this.listItem(addon, local)) };
  }

  async addon(name: string): Promise<Static<typeof MarketAddonDetail>> {
    const [catalogue, local] = await Promise.all([this.catalogue.current(), this.local()]);
    const addon = findAddon(catalogue, name);
    const item = this.listItem(addon, local);
    const newest = addon.versions[0]?.version ?? null;
    let warning: string | null = null;
    if (newest !== null && item.latestVersion === null) {
      warning = `No version of this addon runs on this server (version ${this.serverVersion})`;
    } else if (newest !== null && newest !== item.latestVersion) {
      warning = `There are newer versions available, but they are not compatible with this server (version ${this.serverVersion})`;
    }
    return {
      ...item,
      versions: addon.versions.map((entry) => ({
        version: entry.version,
        ayonVersion: entry.ayonVersion ?? null,
        ...dates(entry, catalogue),
        isCompatible: this.compatible(entry),
        isInstalled: isInstalled(local, addon.name, entry.version),
        isProduction: local.production[addon.name] === entry.version,
      })),
      warning,
    };
  }

  async version(name: string, version: string): Promise<MarketAddonVersionDetail> {
    const [catalogue, local] = await Promise.all([this.catalogue.current(), this.local()]);
    const addon = findAddon(catalogue, name);
    const entry = addon.versions.find((candidate) => candidate.version === version);
    if (!entry) throw new NotFound(`Addon ${name} has no version ${version} in the market catalogue`);
    return this.versionDetail(catalogue, local, addon, entry);
  }

  /** The releases, newest first: those of the newest release only, unless all are asked for. */
  async releases(all: boolean): Promise<{ releases: Static<typeof ReleaseListItem>[]; detail: string }> {
    const catalogue = await this.catalogue.current();
    const latest = catalogue.releases[0]?.release;
    const releases = catalogue.releases
      .filter((release) => all || release.release === latest)
      .map((release) => ({
        ...releaseFields(release),
        isLatest: release.release === latest,
        addons: Object.keys(release.addons),
      }));
    return { releases, detail: '' };
  }

  async release(name: string): Promise<Static<typeof ReleaseInfo>> {
    const [catalogue, local] = await Promise.all([this.catalogue.current(), this.local()]);
    const release = catalogue.releases.find((candidate) => candidate.name === name);
    if (!release) throw new NotFound(`Release ${name} is not in the market catalogue`);
    const addons = Object.entries(release.addons).map(([addonName, version]) => {
      // The catalogue was checked when read: every addon version a release names exists.
      const addon = findAddon(catalogue, addonName);
      const entry = addon.versions.find((candidate) => candidate.version === version)!;
      return this.versionDetail(catalogue, local, addon, entry);
    });
    return {
      ...releaseFields(release),
      addons,
      ...(release.installers ? { installers: release.installers } : {}),
      ...(release.dependencyPackages ? { dependencyPackages: release.dependencyPackages } : {}),
    };
  }

  /** The studio's licenses, read from Ynput Cloud (there is no offline copy): errors say why the cloud failed. */
  async licenses(refresh: boolean): Promise<{ licenses: Record<string, unknown>[]; syncedAt: number }> {
    const answer = await this.cloud.request(
      'GET',
      '/api/v1/licenses',
      refresh ? { query: { refresh: 'true' } } : {},
    );
    const licenses = answer.licenses;
    if (
      !Array.isArray(licenses) ||
      licenses.some((item) => !item || typeof item !== 'object' || Array.isArray(item))
    ) {
      throw new PipewrightError(
        502,
        `Ynput Cloud at ${this.cloud.baseUrl()} answered the licenses in an unexpected shape (no list of objects)`,
        'cloud-unreachable',
      );
    }
    return { licenses: licenses as Record<string, unknown>[], syncedAt: Date.now() / 1000 };
  }

  private listItem(addon: CatalogueAddon, local: Local): ListItem {
    const latestVersion = highest(
      addon.versions.filter((entry) => this.compatible(entry)).map((e) => e.version),
    );
    const currentLatestVersion = highest(local.installed.get(addon.name) ?? []);
    return {
      name: addon.name,
      title: addon.title,
      description: addon.description ?? null,
      orgName: addon.orgName ?? null,
      orgTitle: addon.orgTitle ?? null,
      icon: addon.icon ?? null,
      category: addon.category ?? null,
      tags: addon.tags ?? [],
      flags: addon.flags ?? [],
      latestVersion,
      links:
        addon.links?.map((link) => ({
          type: link.type ?? 'homepage',
          label: link.label ?? null,
          url: link.url,
        })) ?? null,
      available: addon.available ?? true,
      currentProductionVersion: local.production[addon.name] ?? null,
      currentLatestVersion,
      // Only an installed addon can be out of date; one that is not installed is merely available.
      isOutdated:
        currentLatestVersion !== null &&
        latestVersion !== null &&
        compareVersions(latestVersion, currentLatestVersion) > 0,
    };
  }

  private versionDetail(
    catalogue: Catalogue,
    local: Local,
    addon: CatalogueAddon,
    entry: CatalogueVersion,
  ): MarketAddonVersionDetail {
    const item = this.listItem(addon, local);
    const isCompatible = this.compatible(entry);
    return {
      ...item,
      version: entry.version,
      // The catalogue's URL as it is, for POST /api/addons/install?url=; none for a version this server cannot run
      // or an addon that is not available for download, so the client has nothing to install.
      url: isCompatible && item.available ? (entry.url ?? null) : null,
      altUrl: isCompatible && item.available ? (entry.altUrl ?? null) : null,
      checksum: entry.checksum ?? null,
      ayonVersion: entry.ayonVersion ?? null,
      ...dates(entry, catalogue),
      isInstalled: isInstalled(local, addon.name, entry.version),
      isProduction: local.production[addon.name] === entry.version,
      isCompatible,
    };
  }

  private compatible(entry: CatalogueVersion): boolean {
    return satisfies(this.serverVersion, entry.ayonVersion);
  }

  private async local(): Promise<Local> {
    const installed = new Map<string, string[]>();
    // Installed addons only: the server's own areas (plugins/) are not market addons.
    for (const addon of this.addons()) {
      if (addon.internal) continue;
      installed.set(addon.name, [...(installed.get(addon.name) ?? []), addon.version]);
    }
    // The bundles table belongs to the core; it is only read here.
    const result = await sql<{ addons: Record<string, unknown> | null }>`
      SELECT data->'addons' AS addons FROM bundles WHERE is_production LIMIT 1`.execute(this.db);
    const production: Record<string, string | null> = {};
    for (const [name, version] of Object.entries(result.rows[0]?.addons ?? {})) {
      production[name] = typeof version === 'string' ? version : null;
    }
    return { installed, production };
  }
}

function findAddon(catalogue: Catalogue, name: string): CatalogueAddon {
  const addon = catalogue.addons.get(name);
  if (!addon) throw new NotFound(`Addon ${name} is not in the market catalogue`);
  return addon;
}

function isInstalled(local: Local, name: string, version: string): boolean {
  return (local.installed.get(name) ?? []).includes(version);
}

/** Dates of a catalogue entry; an entry without them dates from the catalogue file. */
function dates(entry: CatalogueVersion, catalogue: Catalogue) {
  const createdAt = entry.createdAt ? isoTime(entry.createdAt) : catalogue.modifiedAt.toISOString();
  const updatedAt = entry.updatedAt ? isoTime(entry.updatedAt) : createdAt;
  return { createdAt, updatedAt };
}

function releaseFields(release: CatalogueRelease) {
  return {
    name: release.name,
    label: release.label,
    release: release.release,
    description: release.description ?? '',
    icon: release.icon ?? '',
    createdAt: isoTime(release.createdAt),
    mandatoryAddons: release.mandatoryAddons ?? [],
  };
}
