import {
  NoContent,
  NotFound,
  ValidationFailed,
  requireAdmin,
  requireManager,
  requireUser,
  type AddonApp,
  type RequestUser,
} from '@pipewright/sdk';
import type { FastifyRequest } from 'fastify';
import {
  AddonParams,
  AddonProjectParams,
  ModifyOverridesRequest,
  OverrideMap,
  ProjectQuery,
  ProjectVariantQuery,
  SettingsBody,
  SettingsValue,
  SiteQuery,
  StudioQuery,
  VariantQuery,
} from './schemas.js';
import { STUDIO, type Actor, type Level, type SettingsService } from './service.js';
import type { Json } from './overrides.js';

// Routes under /api/addons/{addon_name}/{addon_version}/: the settings of one addon version. AYON spells the
// version segment {version} on some of them; the parameter is named addon_version everywhere because Fastify's
// router shares these segments with the core's handover to installed addons.
//
// Who: every logged-in user reads settings (pipelines and launchers read them as service users); managers change
// studio and project settings; the raw overrides are for admins; a user reads and changes their own site's settings.

const BASE = '/api/addons/:addon_name/:addon_version';

type SiteQueryValues = { site_id?: string; site?: string };
const siteOf = (query: SiteQueryValues): string | null => query.site_id ?? query.site ?? null;
/** Site settings belong to the caller's machine: clients name it in x-ayon-site-id when the query does not. */
const machineOf = (request: { query: SiteQueryValues; headers: Record<string, unknown> }): string | null => {
  const header = request.headers['x-ayon-site-id'];
  const fromQuery = siteOf(request.query);
  if (fromQuery || typeof header !== 'string' || header === '') return fromQuery;
  if (!/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/.test(header)) {
    throw new ValidationFailed(
      [{ loc: ['header', 'x-ayon-site-id'], msg: 'must be letters, digits, _ . -', type: 'pattern' }],
      'Validation error: header.x-ayon-site-id',
    );
  }
  return header;
};
const actorOf = (request: FastifyRequest, user: RequestUser): Actor => ({
  user: user.name,
  sender: request.sender,
});
const path = (keys: (string | number)[]) => keys.map(String);

/** The caller's own site in the project when a site is given, else the project itself. */
async function projectLevel(
  settings: SettingsService,
  projectName: string,
  site: string | null,
  user: RequestUser,
): Promise<Level> {
  const project = await settings.project(projectName);
  return site ? { kind: 'projectSite', project, site, user: user.name } : { kind: 'project', project };
}

/** Changing a project's settings needs a manager; changing one's own site overrides only a login. */
const requireProjectWriter = (request: FastifyRequest, site: string | null) =>
  site ? requireUser(request) : requireManager(request);

export function addonSettingsRoutes(settings: SettingsService) {
  return async (app: AddonApp) => {
    // --- Studio level ---

    app.get(
      `${BASE}/schema`,
      {
        schema: {
          summary: 'Return the JSON schema of the addon settings',
          params: AddonParams,
          querystring: VariantQuery,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        requireUser(request);
        const { addon_name, addon_version } = request.params;
        return settings.schemaDocument(settings.addon(addon_name, addon_version));
      },
    );

    app.get(
      `${BASE}/settings`,
      {
        schema: {
          summary: 'Return the settings (including studio overrides) of the given addon',
          params: AddonParams,
          querystring: StudioQuery,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        requireUser(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        return (await settings.values(info, request.query.variant, STUDIO)) ?? {};
      },
    );

    app.post(
      `${BASE}/settings`,
      {
        schema: {
          summary: 'Set the studio overrides for the given addon',
          description:
            'The body is the new settings; keys it leaves out keep their value. Only what differs from the defaults ' +
            '(or was overridden before, or is listed in __pinned_fields__) is stored.',
          params: AddonParams,
          querystring: VariantQuery,
          body: SettingsBody,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireManager(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        const { __pinned_fields__: pins, __unpinned_fields__: unpins, ...body } = request.body;
        await settings.save(
          info,
          request.query.variant,
          STUDIO,
          body as Json,
          { pins: pins?.map(path), unpins: unpins?.map(path) },
          actorOf(request, caller),
        );
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${BASE}/overrides`,
      {
        schema: {
          summary: 'Studio overrides of the addon settings, keyed by form field',
          params: AddonParams,
          querystring: StudioQuery,
          response: { 200: OverrideMap },
        },
      },
      async (request) => {
        requireManager(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        return settings.overrideMap(info, request.query.variant, STUDIO);
      },
    );

    app.post(
      `${BASE}/overrides`,
      {
        schema: {
          summary:
            'Pin the current value of a field as a studio override, or remove the studio override of a field',
          params: AddonParams,
          querystring: VariantQuery,
          body: ModifyOverridesRequest,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireManager(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        const { action, path: keys } = request.body;
        await settings.modify(
          info,
          request.query.variant,
          STUDIO,
          action,
          path(keys),
          actorOf(request, caller),
        );
        return reply.code(204).send(null);
      },
    );

    app.delete(
      `${BASE}/overrides`,
      {
        schema: {
          summary: 'Remove every studio override of the addon (back to the defaults)',
          params: AddonParams,
          querystring: VariantQuery,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireManager(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        await settings.clear(info, request.query.variant, STUDIO, actorOf(request, caller));
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${BASE}/rawOverrides`,
      {
        schema: {
          summary: 'The stored studio overrides as they are (administrators)',
          params: AddonParams,
          querystring: VariantQuery,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        requireAdmin(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        return settings.rawOverrides(info, request.query.variant, STUDIO);
      },
    );

    app.put(
      `${BASE}/rawOverrides`,
      {
        schema: {
          summary: 'Set raw studio overrides for an addon (administrators; no validation)',
          params: AddonParams,
          querystring: VariantQuery,
          body: SettingsValue,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireAdmin(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        await settings.setRawOverrides(
          info,
          request.query.variant,
          STUDIO,
          request.body as Json,
          actorOf(request, caller),
        );
        return reply.code(204).send(null);
      },
    );

    // --- Project level (and the caller's site inside the project) ---

    app.get(
      `${BASE}/schema/:project_name`,
      {
        schema: {
          summary: 'Return the JSON schema of the addon settings',
          params: AddonProjectParams,
          querystring: ProjectVariantQuery,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        requireUser(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        await settings.project(request.params.project_name);
        return settings.schemaDocument(info);
      },
    );

    app.get(
      `${BASE}/settings/:project_name`,
      {
        schema: {
          summary:
            'The settings of the addon in a project (with the caller\u2019s site overrides when a site is given)',
          params: AddonProjectParams,
          querystring: ProjectQuery,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const { addon_name, addon_version, project_name } = request.params;
        const info = settings.addon(addon_name, addon_version);
        const level = await projectLevel(settings, project_name, siteOf(request.query), caller);
        const values = await settings.values(info, request.query.variant, level);
        if (!values) throw new NotFound(`Settings for ${addon_name} ${addon_version} not found`);
        return values;
      },
    );

    app.post(
      `${BASE}/settings/:project_name`,
      {
        schema: {
          summary:
            'Set the project overrides of the given addon (or the caller\u2019s site overrides with a site)',
          params: AddonProjectParams,
          querystring: ProjectVariantQuery,
          body: SettingsBody,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const site = siteOf(request.query);
        const caller = requireProjectWriter(request, site);
        const { addon_name, addon_version, project_name } = request.params;
        const info = settings.addon(addon_name, addon_version);
        const level = await projectLevel(settings, project_name, site, caller);
        const { __pinned_fields__: pins, __unpinned_fields__: unpins, ...body } = request.body;
        await settings.save(
          info,
          request.query.variant,
          level,
          body as Json,
          { pins: pins?.map(path), unpins: unpins?.map(path) },
          actorOf(request, caller),
        );
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${BASE}/overrides/:project_name`,
      {
        schema: {
          summary:
            'Studio and project overrides (and the caller\u2019s site overrides with a site), keyed by form field',
          params: AddonProjectParams,
          querystring: ProjectQuery,
          response: { 200: OverrideMap },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const { addon_name, addon_version, project_name } = request.params;
        const info = settings.addon(addon_name, addon_version);
        const level = await projectLevel(settings, project_name, siteOf(request.query), caller);
        return settings.overrideMap(info, request.query.variant, level);
      },
    );

    app.post(
      `${BASE}/overrides/:project_name`,
      {
        schema: {
          summary:
            'Pin or remove one project override (or one of the caller\u2019s site overrides with a site)',
          params: AddonProjectParams,
          querystring: ProjectVariantQuery,
          body: ModifyOverridesRequest,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const site = siteOf(request.query);
        const caller = requireProjectWriter(request, site);
        const { addon_name, addon_version, project_name } = request.params;
        const info = settings.addon(addon_name, addon_version);
        const level = await projectLevel(settings, project_name, site, caller);
        const { action, path: keys } = request.body;
        await settings.modify(
          info,
          request.query.variant,
          level,
          action,
          path(keys),
          actorOf(request, caller),
        );
        return reply.code(204).send(null);
      },
    );

    app.delete(
      `${BASE}/overrides/:project_name`,
      {
        schema: {
          summary: 'Remove every project override (or every override of the caller\u2019s site with a site)',
          params: AddonProjectParams,
          querystring: ProjectVariantQuery,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const site = siteOf(request.query);
        const caller = requireProjectWriter(request, site);
        const { addon_name, addon_version, project_name } = request.params;
        const info = settings.addon(addon_name, addon_version);
        const level = await projectLevel(settings, project_name, site, caller);
        await settings.clear(info, request.query.variant, level, actorOf(request, caller));
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${BASE}/rawOverrides/:project_name`,
      {
        schema: {
          summary: 'The stored project overrides as they are (administrators)',
          params: AddonProjectParams,
          querystring: ProjectVariantQuery,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        const caller = requireAdmin(request);
        const { addon_name, addon_version, project_name } = request.params;
        const info = settings.addon(addon_name, addon_version);
        const level = await projectLevel(settings, project_name, siteOf(request.query), caller);
        return settings.rawOverrides(info, request.query.variant, level);
      },
    );

    app.put(
      `${BASE}/rawOverrides/:project_name`,
      {
        schema: {
          summary: 'Set raw project overrides for an addon (administrators; no validation)',
          params: AddonProjectParams,
          querystring: ProjectVariantQuery,
          body: SettingsValue,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireAdmin(request);
        const { addon_name, addon_version, project_name } = request.params;
        const info = settings.addon(addon_name, addon_version);
        const level = await projectLevel(settings, project_name, siteOf(request.query), caller);
        await settings.setRawOverrides(
          info,
          request.query.variant,
          level,
          request.body as Json,
          actorOf(request, caller),
        );
        return reply.code(204).send(null);
      },
    );

    // --- Site settings (the addon's separate site schema), per site and user ---

    app.get(
      `${BASE}/siteSettings/schema`,
      {
        schema: {
          summary: 'Return the JSON schema of the addon site settings',
          params: AddonParams,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        requireUser(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        return settings.schemaDocument(info, true);
      },
    );

    app.get(
      `${BASE}/siteSettings`,
      {
        schema: {
          summary: 'The caller\u2019s site settings of the addon (the defaults without a site)',
          params: AddonParams,
          querystring: SiteQuery,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        return settings.siteSettings(info, machineOf(request), caller.name);
      },
    );

    app.put(
      `${BASE}/siteSettings`,
      {
        schema: {
          summary:
            'Set the caller\u2019s site settings of the addon (the whole value; keys left out take the defaults)',
          params: AddonParams,
          querystring: SiteQuery,
          body: SettingsValue,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        const site = machineOf(request);
        if (!site) {
          throw new ValidationFailed(
            [
              {
                loc: ['query', 'site_id'],
                msg: 'a site is required (site_id or site, or the x-ayon-site-id header)',
                type: 'missing',
              },
            ],
            'Validation error: query.site_id: a site is required',
          );
        }
        await settings.setSiteSettings(
          info,
          site,
          caller.name,
          request.body as Json,
          actorOf(request, caller),
        );
        return reply.code(204).send(null);
      },
    );
  };
}
