import { addonPackage, defineAddon, runAsSender } from '@pipewright/sdk';
import { BundleSettings } from './bundle-settings.js';
import { bundleSettingsRoutes } from './bundle-routes.js';
import { studioMigrations } from './migrations.js';
import { addonSettingsRoutes } from './routes.js';
import { STUDIO, type Level } from './levels.js';
import { SettingsService } from './service.js';
import { OverrideStore } from './store.js';
import {
  carryProductionForward,
  copyStagingToProduction,
  migrateSettingsByBundle,
  type VersionChange,
} from './variant-copy.js';
import { authRef } from '@pipewright/plugin-auth/api';
import { bundlesRef } from '@pipewright/plugin-bundles/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { settingsRef } from './api.js';

// Addon settings: each addon declares a settings schema with defaults; studios override them per addon version
// and variant (production, staging, a dev bundle), then per project, then per site and user. Only differences from
// the level below are stored, so a new default in a new addon version reaches everyone who did not override it.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { bundles: bundlesRef, projects: projectsRef, auth: authRef },
  migrations: { studio: studioMigrations },
  async setup(ctx, deps) {
    const store = new OverrideStore(ctx.db);
    const bundles = deps.bundles;
    const settings = new SettingsService(ctx.db, store, ctx.events, ctx.addons, deps.projects);
    const all = new BundleSettings(deps.projects, settings, bundles, ctx.addons);
    ctx.provide(settingsRef, {
      values: async (addon, version, scope = {}) => {
        const project = scope.project ? await settings.project(scope.project) : null;
        const level: Level = !project
          ? STUDIO
          : scope.site
            ? { kind: 'projectSite', project, site: scope.site.id, user: scope.site.user }
            : { kind: 'project', project };
        return settings.values(settings.addon(addon, version), scope.variant ?? 'production', level);
      },
    });

    // Promoting the staging bundle makes its staging settings the production ones, in the same transaction.
    bundles.onPromote(copyStagingToProduction(store));

    // Overrides of a deleted project or user go with them; a renamed user keeps their site settings.
    const quietly = (what: string, work: () => Promise<void>) =>
      work().catch((error) => ctx.log.error({ err: error }, `Could not update settings after ${what}`));
    ctx.events.subscribe('entity.project.deleted', (message) => {
      if (message.project) return quietly('a project deletion', () => store.forgetProject(message.project!));
    });
    ctx.events.subscribe('user.deleted', (message) => {
      const name = message.summary.userName;
      if (typeof name === 'string') return quietly('a user deletion', () => store.forgetUser(name));
    });
    // Settings work with any user source (the users addon or another), so they follow a rename once it is
    // announced rather than through the users addon's rename hooks.
    ctx.events.subscribe('user.renamed', (message) => {
      const { userName, oldName } = message.summary;
      if (typeof userName === 'string' && typeof oldName === 'string') {
        return quietly('a user rename', () => store.renameUser(oldName, userName));
      }
    });

    // The production bundle moved an addon to another version: the new version starts from the old one's settings.
    ctx.events.subscribe('bundle.updated', (message) => {
      if (message.summary.isProduction !== true) return;
      return quietly('a production bundle change', async () => {
        const changes = (await ctx.events.get(message.id))?.payload.versionChanges;
        if (!Array.isArray(changes) || changes.length === 0) return;
        // Its settings events name the bundle change's client, as if made by that request.
        const sender = { sender: message.sender, senderType: message.senderType ?? 'api' };
        const actor = { user: message.user ?? 'system' };
        await runAsSender(sender, () =>
          carryProductionForward(ctx.db, store, settings, changes as VersionChange[], actor),
        );
      });
    });

    await ctx.app.register(addonSettingsRoutes(settings));
    await ctx.app.register(
      bundleSettingsRoutes(
        all,
        (request, actor) =>
          migrateSettingsByBundle(ctx.db, store, settings, bundles, request, actor, ctx.log),
        bundles,
      ),
    );
  },
});
