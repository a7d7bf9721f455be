import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceUnavailable, Type, check, type Problem, type Static } from '@pipewright/sdk';
import type { FastifyBaseLogger } from 'fastify';
import {
  CatalogueAddonName,
  DependencyPackageManifest,
  InstallerManifest,
  LinkTypes,
  ReleaseName,
} from './schemas.js';
import { REQUIREMENT_PATTERN, SEMVER_PATTERN, compareVersions } from './versions.js';

// The market's data: a catalogue file shipped with the server (plugins/market/catalogue.json), which an operator
// replaces by putting their own at DATA_DIR/market/catalogue.json. No network is needed to browse the market.

const HttpUrl = Type.String({ pattern: '^https?://\\S+$', maxLength: 2048 });
const Text = Type.String({ minLength: 1 });

const CatalogueVersion = Type.Object(
  {
    version: Type.String({ pattern: SEMVER_PATTERN }),
    ayonVersion: Type.Optional(Type.String({ pattern: REQUIREMENT_PATTERN })),
    url: Type.Optional(HttpUrl),
    altUrl: Type.Optional(HttpUrl),
    checksum: Type.Optional(Text),
    createdAt: Type.Optional(Type.String({ format: 'date-time' })),
    updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

const CatalogueAddon = Type.Object(
  {
    name: CatalogueAddonName,
    title: Text,
    description: Type.Optional(Type.String()),
    orgName: Type.Optional(Text),
    orgTitle: Type.Optional(Text),
    icon: Type.Optional(HttpUrl),
    category: Type.Optional(Text),
    tags: Type.Optional(Type.Array(Text)),
    flags: Type.Optional(Type.Array(Text)),
    links: Type.Optional(
      Type.Array(
        Type.Object(
          {
            type: Type.Optional(Type.Union(LinkTypes.map((type) => Type.Literal(type)))),
            label: Type.Optional(Text),
            url: HttpUrl,
          },
          { additionalProperties: false },
        ),
      ),
    ),
    available: Type.Optional(Type.Boolean()),
    versions: Type.Array(CatalogueVersion),
  },
  { additionalProperties: false },
);

const CatalogueRelease = Type.Object(
  {
    name: ReleaseName,
    label: Text,
    release: Text,
    description: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    mandatoryAddons: Type.Optional(Type.Array(CatalogueAddonName)),
    /** Addon name to the catalogue version the release uses. */
    addons: Type.Record(Type.String(), Type.String()),
    installers: Type.Optional(Type.Array(InstallerManifest)),
    dependencyPackages: Type.Optional(Type.Array(DependencyPackageManifest)),
  },
  { additionalProperties: false },
);

/** The catalogue file. Unknown fields are refused, so a misspelt one is found instead of silently ignored. */
export const CatalogueFile = Type.Object(
  {
    addons: Type.Array(CatalogueAddon),
    releases: Type.Optional(Type.Array(CatalogueRelease)),
  },
  { additionalProperties: false },
);

export type CatalogueAddon = Static<typeof CatalogueAddon>;
export type CatalogueVersion = Static<typeof CatalogueVersion>;
export type CatalogueRelease = Static<typeof CatalogueRelease>;

/** A catalogue read and checked: addons by name (versions newest first), releases newest first. */
export interface Catalogue {
  path: string;
  /** When the file was last changed: the date of entries that do not give their own. */
  modifiedAt: Date;
  addons: Map<string, CatalogueAddon>;
  releases: CatalogueRelease[];
}

/** Where the operator puts a catalogue of their own, under the server's data directory. */
export const operatorCataloguePath = (dataDir: string) => join(dataDir, 'market', 'catalogue.json');

/**
 * The catalogue in use: the operator's when the file exists, otherwise the shipped one. The file is looked at on
 * every request (one stat) and read again only when it changed, so replacing it takes effect without a restart.
 * A catalogue that cannot be used answers 503 saying what is wrong; the reason is logged once per version of it.
 */
export class CatalogueSource {
  private cached: { stamp: string; catalogue: Catalogue | null; problem: string | null } | null = null;

  constructor(
    private readonly shippedPath: string,
    private readonly operatorPath: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async current(): Promise<Catalogue> {
    const { path, modifiedAt, stamp } = await this.locate();
    if (this.cached?.stamp !== stamp) {
      let catalogue: Catalogue | null = null;
      let problem: string | null = null;
      try {
        catalogue = parseCatalogue(path, modifiedAt, await readFile(path, 'utf8'));
        this.log.info(
          { path, addons: catalogue.addons.size, releases: catalogue.releases.length },
          'Loaded the market catalogue',
        );
      } catch (error) {
        problem =
          error instanceof CatalogueProblem ? error.message : `${path} cannot be read (${codeOf(error)})`;
        this.log.error({ path, problem }, 'The market catalogue cannot be used');
      }
      this.cached = { stamp, catalogue, problem };
    }
    if (!this.cached.catalogue)
      throw new ServiceUnavailable(`The market catalogue is unusable: ${this.cached.problem}`);
    return this.cached.catalogue;
  }

  private async locate(): Promise<{ path: string; modifiedAt: Date; stamp: string }> {
    for (const path of [this.operatorPath, this.shippedPath]) {
      let info;
      try {
        info = await stat(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && path === this.operatorPath) continue;
        throw this.unusable(path, `${path} cannot be read (${codeOf(error)})`);
      }
      if (!info.isFile()) throw this.unusable(path, `${path} is not a file`);
      return { path, modifiedAt: info.mtime, stamp: `${path}\n${info.mtimeMs}\n${info.size}\n${info.ino}` };
    }
    throw this.unusable(this.shippedPath, 'no catalogue file');
  }

  private unusable(path: string, problem: string): ServiceUnavailable {
    this.log.error({ path, problem }, 'The market catalogue cannot be used');
    return new ServiceUnavailable(`The market catalogue is unusable: ${problem}`);
  }
}

class CatalogueProblem extends Error {}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** Parse and check a catalogue: the schema first, then what a schema cannot say (duplicates, references). */
export function parseCatalogue(path: string, modifiedAt: Date, text: string): Catalogue {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CatalogueProblem(`${path} is not valid JSON (${(error as Error).message})`);
  }
  const problems: Problem[] = check(CatalogueFile, raw, [], 'refuse');
  if (problems.length === 0) problems.push(...crossCheck(raw as Static<typeof CatalogueFile>));
  if (problems.length > 0) {
    const shown = problems
      .slice(0, 5)
      .map((problem) => `${problem.loc.length ? problem.loc.join('.') : '(top level)'}: ${problem.msg}`)
      .join('; ');
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    throw new CatalogueProblem(`${path} is malformed: ${shown}${more}`);
  }
  const file = raw as Static<typeof CatalogueFile>;
  const addons = new Map<string, CatalogueAddon>();
  for (const addon of file.addons) {
    addons.set(addon.name, {
      ...addon,
      versions: [...addon.versions].sort((a, b) => compareVersions(b.version, a.version)),
    });
  }
  const releases = [...(file.releases ?? [])].sort(
    (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt),
  );
  return { path, modifiedAt, addons, releases };
}

function crossCheck(file: Static<typeof CatalogueFile>): Problem[] {
  const problems: Problem[] = [];
  const problem = (loc: (string | number)[], msg: string) => problems.push({ loc, msg, type: 'value_error' });
  const versionsOf = new Map<string, Set<string>>();
  file.addons.forEach((addon, i) => {
    if (versionsOf.has(addon.name)) problem(['addons', i, 'name'], `addon ${addon.name} is listed twice`);
    const versions = new Set<string>();
    addon.versions.forEach((entry, j) => {
      if (versions.has(entry.version)) {
        problem(
          ['addons', i, 'versions', j, 'version'],
          `version ${entry.version} of ${addon.name} is listed twice`,
        );
      }
      versions.add(entry.version);
    });
    versionsOf.set(addon.name, versions);
  });
  const releaseNames = new Set<string>();
  (file.releases ?? []).forEach((release, i) => {
    if (releaseNames.has(release.name))
      problem(['releases', i, 'name'], `release ${release.name} is listed twice`);
    releaseNames.add(release.name);
    for (const [name, version] of Object.entries(release.addons)) {
      if (!versionsOf.get(name)?.has(version)) {
        problem(['releases', i, 'addons', name], `${name} ${version} is not in the catalogue's addons`);
      }
    }
    for (const name of release.mandatoryAddons ?? []) {
      if (!(name in release.addons))
        problem(['releases', i, 'mandatoryAddons'], `${name} is mandatory but not in the release`);
    }
  });
  return problems;
}
