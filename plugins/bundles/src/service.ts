import {
  BadRequest,
  Conflict,
  NotFound,
  type AddonInfo,
  type AddonRuntime,
  type Database,
  type EventBus,
} from '@pipewright/sdk';
import type { BundleDirectory, BundleRecord } from './api.js';
import type { FastifyBaseLogger } from 'fastify';
import { checkBundle, failureMessage, indispensableAddons, lockedOut } from './check.js';
import type { BundleCreate, BundleIssue, BundlePatch } from './schemas.js';
import { BundleStore, isUniqueViolation } from './store.js';

type PromoteHook = (bundle: BundleRecord) => Promise<void>;

/** Who asks for a change: the user its events name (the client they name travels with the request). */
export interface Actor {
  user: string;
}

/** A server addon whose version a bundle change moved: its settings follow (the settings addon migrates them). */
export interface VersionChange {
  addonName: string;
  fromVersion: string;
  toVersion: string;
}

const PLACEHOLDERS = new Set(['__inherit__', '__disable__']);

/** "none" in any case means switched off, as AYON reads it. */
function normaliseVersions(addons: Record<string, string | null>): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(addons).map(([name, version]) => [
      name,
      version?.toLowerCase() === 'none' ? null : version,
    ]),
  );
}

const sameAddons = (a: Record<string, string | null>, b: Record<string, string | null>) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([name, version]) => b[name] === version);

/**
 * Bundles: create, change, promote and delete them; one production and one staging bundle at a time, one dev
 * bundle per user. After each change the server applies the production bundle at once and tells the other server
 * processes (bundle.* events) to do the same.
 */
export class BundleService implements BundleDirectory {
  private readonly promoteHooks: PromoteHook[] = [];
  private readonly store: BundleStore;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly runtime: AddonRuntime,
    private readonly self: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.store = new BundleStore(db);
  }

  // BundleDirectory, for the settings addon and others

  // Inside a unit of work (a promote hook), these read through its transaction.
  get(name: string): Promise<BundleRecord | null> {
    return this.store.get(name);
  }

  async forVariant(variant: string): Promise<BundleRecord | null> {
    if (variant === 'production' || variant === 'staging') return this.store.withRole(variant);
    const bundle = await this.store.get(variant);
    return bundle?.isDev ? bundle : null;
  }

  onPromote(hook: PromoteHook): void {
    this.promoteHooks.push(hook);
  }

  // Reading and checking

  list(archived: boolean): Promise<BundleRecord[]> {
    return this.store.list({ archived });
  }

  check(bundle: BundleCreate): { success: boolean; issues: BundleIssue[] } {
    const issues = this.issuesOf(this.fromBody(bundle));
    return { success: !issues.some((issue) => issue.severity === 'error'), issues };
  }

  // Changes

  async create(body: BundleCreate, force: boolean, actor: Actor): Promise<void> {
    const bundle = this.fromBody(body);
    if (bundle.isProject && (bundle.isProduction || bundle.isStaging)) {
      throw new BadRequest('Project bundles cannot be set as production or staging');
    }
    if (bundle.isProject && bundle.isDev)
      throw new BadRequest('Project bundles cannot be set as development');
    this.verify(bundle, force);
    await this.write(async () => {
      if (await this.store.get(bundle.name, { lock: true })) {
        throw new Conflict(`Bundle ${bundle.name} already exists`);
      }
      await this.claimUser(bundle.activeUser, bundle.name);
      if (bundle.isProduction) await this.store.clearRole('production', bundle.name);
      if (bundle.isStaging) await this.store.clearRole('staging', bundle.name);
      await this.store.insert(bundle);
      const role = bundle.isProduction
        ? ' production'
        : bundle.isStaging
          ? ' staging'
          : bundle.isDev
            ? ' development'
            : '';
      await this.announce('bundle.created', actor, `New${role} bundle '${bundle.name}' created`, bundle, {
        isProduction: bundle.isProduction,
        isStaging: bundle.isStaging,
        isDev: bundle.isDev,
      });
    });
  }

  async patch(name: string, patch: BundlePatch, force: boolean, actor: Actor): Promise<void> {
    const versionChanges: VersionChange[] = [];
    await this.write(async () => {
      const current = await this.store.get(name, { lock: true });
      if (!current) throw new NotFound(`Bundle ${name} not found`);
      if (current.isProject && (patch.isProduction || patch.isStaging)) {
        throw new BadRequest('Project bundles cannot be set as production or staging');
      }
      if (current.isProject && patch.isDev)
        throw new BadRequest('Project bundles cannot be set as development');

      const bundle: BundleRecord = {
        ...current,
        isArchived: patch.isArchived ?? current.isArchived,
        isDev: patch.isDev ?? current.isDev,
        isProduction: patch.isProduction ?? current.isProduction,
        isStaging: patch.isStaging ?? current.isStaging,
      };
      if (bundle.isArchived && (bundle.isProduction || bundle.isStaging)) {
        throw new BadRequest('Cannot archive bundle that is production or staging');
      }
      // The launcher setup of production and staging bundles is fixed once made; dev bundles are worked on.
      if (bundle.isDev) {
        if (patch.activeUser !== undefined) bundle.activeUser = patch.activeUser;
        if (patch.addonDevelopment !== undefined) bundle.addonDevelopment = patch.addonDevelopment;
        if (patch.installerVersion !== undefined) bundle.installerVersion = patch.installerVersion;
      } else {
        bundle.activeUser = null;
      }
      if (patch.dependencyPackages !== undefined) bundle.dependencyPackages = patch.dependencyPackages;
      if (patch.addons !== undefined) {
        const addons = { ...current.addons };
        for (const [addon, version] of Object.entries(normaliseVersions(patch.addons))) {
          const before = addons[addon];
          if (
            before &&
            version &&
            before !== version &&
            !PLACEHOLDERS.has(before) &&
            !PLACEHOLDERS.has(version)
          ) {
            versionChanges.push({ addonName: addon, fromVersion: before, toVersion: version });
          }
          addons[addon] = version;
        }
        bundle.addons = addons;
      }

      // A bundle that was valid when made can still be archived or re-packaged after an addon went away, so the
      // check runs only when the addons change or the bundle takes a role.
      const needsCheck =
        !sameAddons(bundle.addons, current.addons) ||
        (bundle.isProduction && !current.isProduction) ||
        (bundle.isStaging && !current.isStaging);
      if (needsCheck) this.verify(bundle, force);
      if (bundle.activeUser !== current.activeUser) await this.claimUser(bundle.activeUser, name);
      if (bundle.isProduction && !current.isProduction) await this.store.clearRole('production', name);
      if (bundle.isStaging && !current.isStaging) await this.store.clearRole('staging', name);
      await this.store.update(bundle);
      const changedFields = Object.entries(patch)
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([field]) => field);
      await this.announce(
        'bundle.updated',
        actor,
        `Bundle '${name}' updated`,
        bundle,
        {
          changedFields,
          isProduction: bundle.isProduction,
          isStaging: bundle.isStaging,
          isArchived: bundle.isArchived,
          isDev: bundle.isDev,
          isProject: bundle.isProject,
        },
        { versionChanges },
      );
    });
  }

  /** Make the staging bundle the production bundle; the promote hooks (settings) run in the same transaction. */
  async promote(name: string, actor: Actor): Promise<void> {
    await this.write(async () => {
      const current = await this.store.get(name, { lock: true });
      if (!current) throw new NotFound(`Bundle ${name} not found`);
      if (current.isArchived) throw new BadRequest('Archived bundles cannot be modified');
      if (!current.isStaging) throw new BadRequest('Only staging bundles can be promoted');
      if (current.isDev) throw new BadRequest('Dev bundles cannot be promoted');
      const bundle = { ...current, isProduction: true };
      this.refuseLockout(bundle);
      await this.store.clearRole('production', name);
      await this.store.update(bundle);
      for (const hook of this.promoteHooks) await hook(bundle);
      await this.announce('bundle.updated', actor, `Bundle '${name}' promoted to production`, bundle, {
        changedFields: ['isProduction'],
        isProduction: true,
        isStaging: bundle.isStaging,
        isArchived: false,
        isDev: bundle.isDev,
        isProject: bundle.isProject,
      });
    });
  }

  async remove(name: string, actor: Actor): Promise<void> {
    await this.write(async () => {
      const current = await this.store.get(name, { lock: true });
      if (!current) throw new NotFound(`Bundle ${name} not found`);
      if (current.isProduction || current.isStaging) {
        throw new BadRequest(
          `Bundle ${name} is the ${current.isProduction ? 'production' : 'staging'} bundle and cannot be deleted`,
        );
      }
      await this.store.remove(name);
      await this.announce('bundle.deleted', actor, `Bundle '${name}' deleted`, current, {});
    });
  }

  // Rules shared by the changes

  private fromBody(body: BundleCreate): BundleRecord {
    const isDev = body.isDev ?? false;
    return {
      name: body.name,
      createdAt: body.createdAt ? new Date(body.createdAt) : new Date(),
      addons: normaliseVersions(body.addons ?? {}),
      installerVersion: body.installerVersion ?? null,
      dependencyPackages: body.dependencyPackages ?? {},
      addonDevelopment: body.addonDevelopment ?? {},
      isProduction: body.isProduction ?? false,
      isStaging: body.isStaging ?? false,
      isArchived: false,
      isDev,
      isProject: body.isProject ?? false,
      // Only a dev bundle belongs to a user.
      activeUser: isDev ? (body.activeUser ?? null) : null,
    };
  }

  private issuesOf(bundle: BundleRecord): BundleIssue[] {
    const installed = this.runtime.list();
    return checkBundle(bundle, installed, this.indispensable(installed));
  }

  private indispensable(installed: AddonInfo[] = this.runtime.list()): Set<string> {
    return indispensableAddons(this.self, installed);
  }

  /** Refuse a bundle that fails the check (unless forced) or a production bundle that would lock admins out. */
  private verify(bundle: BundleRecord, force: boolean): void {
    this.refuseLockout(bundle);
    if (force) return;
    const message = failureMessage(this.issuesOf(bundle));
    if (message) throw new BadRequest(message);
  }

  /** Even forced: a production bundle may not switch off what the server needs to switch it back. */
  private refuseLockout(bundle: BundleRecord): void {
    if (!bundle.isProduction) return;
    const off = lockedOut(bundle.addons, this.indispensable());
    if (off.length) {
      throw new BadRequest(
        `The production bundle cannot switch off ${off.join(', ')}: the server needs it to change bundles`,
      );
    }
  }

  /** One dev bundle per user: a user already working with another bundle is a conflict. */
  private async claimUser(user: string | null, bundle: string): Promise<void> {
    if (!user) return;
    const other = await this.store.devBundleOf(user, bundle);
    if (other) throw new Conflict(`User ${user} already has the dev bundle ${other}`);
  }

  /**
   * Run a change and its event in one unit of work, then apply the production bundle in this process at once
   * (switched-off addons answer 404 from this moment); the event makes the other server processes apply it.
   */
  private async write(change: () => Promise<void>): Promise<void> {
    try {
      await this.db.transaction().execute(change);
    } catch (error) {
      // Two requests racing for the same name or role: the database keeps one, the other is told.
      if (isUniqueViolation(error))
        throw new Conflict('Another change to bundles happened at the same time; try again');
      throw error;
    }
    try {
      await this.runtime.applyProductionBundle();
    } catch (error) {
      this.log.error({ err: error }, 'Could not apply the production bundle');
    }
  }

  /** The event of a change, in the change's unit of work. */
  private async announce(
    topic: 'bundle.created' | 'bundle.updated' | 'bundle.deleted',
    actor: Actor,
    description: string,
    bundle: BundleRecord,
    summary: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    await this.events.emit({
      topic,
      user: actor.user,
      description,
      summary: { name: bundle.name, ...summary },
      payload: {
        addons: bundle.addons,
        installerVersion: bundle.installerVersion,
        dependencyPackages: bundle.dependencyPackages,
        addonDevelopment: bundle.addonDevelopment,
        isProject: bundle.isProject,
        ...extra,
      },
    });
  }
}
