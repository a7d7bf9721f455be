import { NotFound, Type, type AddonApp } from '@pipewright/sdk';
import type { BundleDirectory } from '@pipewright/plugin-bundles/api';
import type { BundleSettings } from './bundle-settings.js';
import {
  AddonSettingsResponse,
  AllSettingsQuery,
  AllSettingsResponse,
  LegacySettingsQuery,
  LegacySiteSettingsQuery,
  MigrateSettingsByBundleRequest,
  ConfigureAddonsRequest,
} from './schemas.js';
import type { Actor } from './service.js';
import type { BundleMigration } from './variant-copy.js';

/** Settings of a whole bundle at once, and copying settings between bundles. */
export function bundleSettingsRoutes(
  all: BundleSettings,
  migrate: (request: BundleMigration, actor: Actor) => Promise<void>,
  bundles: BundleDirectory,
) {
  return async (app: AddonApp) => {
    app.post(
      '/api/addons',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Copy one addon\u2019s settings between the production and staging variants [deprecated]',
          description:
            'copyVariant copies the studio and project overrides of the addon from the version the copyFrom ' +
            'bundle uses to the version the copyTo bundle uses. Administrators.',
          body: ConfigureAddonsRequest,
          response: { 204: Type.Null() },
        },
      },
      async (request) => {
        const copy = request.body.copyVariant;
        if (copy) {
          const [from, to] = await Promise.all([
            bundles.forVariant(copy.copyFrom),
            bundles.forVariant(copy.copyTo),
          ]);
          if (!from || !to) throw new NotFound(`There is no ${from ? copy.copyTo : copy.copyFrom} bundle`);
          await migrate(
            {
              sourceBundle: from.name,
              targetBundle: to.name,
              sourceVariant: copy.copyFrom,
              targetVariant: copy.copyTo,
              withProjects: true,
              only: [copy.addonName],
            },
            { user: request.caller.name },
          );
        }
      },
    );

    app.get(
      '/api/settings',
      {
        schema: {
          summary: 'Return all addon settings',
          description:
            'Settings of every addon of a bundle: bundle_name, else the bundle the variant points at (a dev variant ' +
            'names its dev bundle). With project_name the project settings, with a site also the caller\u2019s site ' +
            'overrides and site settings. summary leaves the values out.',
          querystring: AllSettingsQuery,
          response: { 200: AllSettingsResponse },
        },
      },
      async (request) => {
        const q = request.query;
        return all.all(request.caller, {
          bundleName: q.bundle_name,
          projectName: q.project_name || undefined,
          projectBundleName: q.project_bundle_name,
          variant: q.variant,
          summary: q.summary,
          site: q.site_id ?? q.site ?? null,
        });
      },
    );

    app.get(
      '/api/settings/addons',
      {
        schema: {
          summary: 'Return all addon settings for the project [deprecated]',
          deprecated: true,
          querystring: LegacySettingsQuery,
          response: { 200: AddonSettingsResponse },
        },
      },
      async (request) => {
        const { variant, project, site } = request.query;
        return all.legacy(request.caller, variant, project, site);
      },
    );

    app.get(
      '/api/settings/addons/siteSettings',
      {
        schema: {
          summary: 'Return site settings for all enabled addons [deprecated]',
          deprecated: true,
          querystring: LegacySiteSettingsQuery,
          response: { 200: AddonSettingsResponse },
        },
      },
      async (request) => all.legacySite(request.caller.name, request.query.variant, request.query.site),
    );

    app.post(
      '/api/migrateSettingsByBundle',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Migrate settings of the addons based on the bundles',
          description:
            'For every addon in both bundles, the target bundle\u2019s version and variant get the source bundle\u2019s ' +
            'overrides (studio, and every project unless withProjects is false), in one transaction. Administrators.',
          body: MigrateSettingsByBundleRequest,
          response: { 200: Type.Null({ description: 'Done' }) },
        },
      },
      async (request) => {
        const withProjects = request.body.withProjects ?? true;
        await migrate({ ...request.body, withProjects }, { user: request.caller.name });
        return null;
      },
    );
  };
}
