import {
  type AddonApp,
  AddonVersionParams,
  NoContent,
  NotFound,
  type RequestUser,
  requireAdmin,
  requireManager,
  ValidationFailed,
} from '@pipewright/sdk';
import type { FastifyRequest } from 'fastify';
import {
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
import { STUDIO, type Level } from './levels.js';
import type { SettingsService } from './service.js';
import type { Json } from './overrides.js';

// Routes under /api/addons/{addon_name}/{addon_version}/: the settings of one addon version. AYON spells the
// version segment {version} on some of them; the parameter is named addon_version everywhere because Fastify's
// router shares these segments with the core's handover to installed addons.
//
// Who: every logged-in user reads studio settings (pipelines and launchers read them as service users); a project's
// settings and overrides only those with access to the project (an access group on it, or managers), as AYON's
// project routes; managers change studio and project settings; the raw overrides are for admins; a user reads and
// changes their own site's settings, in a project they may open.

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
const path = (keys: (string | number)[]) => keys.map(String);

/** Who may act at a level: the guard runs before any lookup, so an unauthorised caller learns nothing. */
type Guard = (request: FastifyRequest, site: string | null) => RequestUser;

/**
 * The studio and the project level of the settings routes share every route; they differ in path, parameters, who
 * may change and list overrides, and which level a request addresses (in a project, the caller's site when a site
 * is given).
 */
interface Scope {
  name: 'studio' | 'project';
  /** Appended to each route's path. */
  suffix: string;
  params: typeof AddonVersionParams | typeof AddonProjectParams;
  readQuery: typeof StudioQuery | typeof ProjectQuery;
  writeQuery: typeof VariantQuery | typeof ProjectVariantQuery;
  /** Said in summaries after "studio" or "project". */
  siteNote: string;
  write: Guard;
  listOverrides: Guard;
}

const SCOPES: Scope[] = [
  {
    name: 'studio',
    suffix: '',
    params: AddonVersionParams,
    readQuery: StudioQuery,
    writeQuery: VariantQuery,
    siteNote: '',
    write: (request) => requireManager(request),
    listOverrides: (request) => requireManager(request),
  },
  {
    name: 'project',
    suffix: '/:project_name',
    params: AddonProjectParams,
    readQuery: ProjectQuery,
    writeQuery: ProjectVariantQuery,
    siteNote: ' (the caller\u2019s site overrides when a site is given)',
    // Changing a project's settings needs a manager; changing one's own site overrides only a login.
    write: (request, site) => (site ? request.caller : requireManager(request)),
    listOverrides: (request) => request.caller,
  },
];

const anyUser: Guard = (request) => request.caller;
const admin: Guard = (request) => requireAdmin(request);

export function addonSettingsRoutes(settings: SettingsService) {
  /** The addon version, variant and level a request addresses, once the guard admitted the caller. */
  async function target(request: FastifyRequest, guard: Guard) {
    const { addon_name, addon_version, project_name } = request.params as Record<string, string>;
    const query = request.query as SiteQueryValues & { variant: string; as?: string };
    const site = siteOf(query);
    const caller = guard(request, site);
    const info = settings.addon(addon_name!, addon_version!);
    let level: Level = STUDIO;
    if (project_name !== undefined) {
      // A project's settings are the project's data: only those who may open the project read or change them.
      const project = await settings.project(project_name, caller);
      level = site ? { kind: 'projectSite', project, site, user: caller.name } : { kind: 'project', project };
    }
    return { info, variant: query.variant, level, actor: { user: caller.name }, asVersion: query.as };
  }

  return async (app: AddonApp) => {
    for (const scope of SCOPES) {
      const { name, suffix, params, siteNote } = scope;

      app.get(
        `${BASE}/schema${suffix}`,
        {
          schema: {
            summary: 'Return the JSON schema of the addon settings',
            params,
            querystring: scope.writeQuery,
            response: { 200: SettingsValue },
          },
        },
        async (request) => {
          const { info, variant, level, actor } = await target(request, anyUser);
          // Enums resolve for the request: the project's task types, the variant's own settings, the caller.
          return settings.schemaDocument(info, {
            projectName: level.kind === 'studio' ? null : level.project,
            variant,
            userName: actor.user,
            siteId: level.kind === 'projectSite' ? level.site : null,
          });
        },
      );

      app.get(
        `${BASE}/settings${suffix}`,
        {
          schema: {
            summary: `Return the settings of the given addon with its ${name} overrides${siteNote}`,
            params,
            querystring: scope.readQuery,
            response: { 200: SettingsValue },
          },
        },
        async (request) => {
          const { info, variant, level, asVersion } = await target(request, anyUser);
          const values = await settings.values(info, variant, level, asVersion);
          if (values) return values;
          // As AYON: an addon without settings has empty studio settings, and no project settings at all.
          if (name === 'studio') return {};
          throw new NotFound(`Settings for ${info.name} ${info.version} not found`);
        },
      );

      app.post(
        `${BASE}/settings${suffix}`,
        {
          schema: {
            summary: `Set the ${name} overrides of the given addon${siteNote}`,
            description:
              'The body is the new settings; keys it leaves out keep their value. Only what differs from the level ' +
              'below (or was overridden before, or is listed in __pinned_fields__) is stored.',
            params,
            querystring: scope.writeQuery,
            body: SettingsBody,
            response: { 204: NoContent },
          },
        },
        async (request) => {
          const { info, variant, level, actor } = await target(request, scope.write);
          const { __pinned_fields__: pins, __unpinned_fields__: unpins, ...body } = request.body;
          const fields = { pins: pins?.map(path), unpins: unpins?.map(path) };
          await settings.save(info, variant, level, body as Json, fields, actor);
        },
      );

      app.get(
        `${BASE}/overrides${suffix}`,
        {
          schema: {
            summary: `Overrides of the addon settings down to the ${name} level${siteNote}, keyed by form field`,
            params,
            querystring: scope.readQuery,
            response: { 200: OverrideMap },
          },
        },
        async (request) => {
          const { info, variant, level, asVersion } = await target(request, scope.listOverrides);
          return settings.overrideMap(info, variant, level, asVersion);
        },
      );

      app.post(
        `${BASE}/overrides${suffix}`,
        {
          schema: {
            summary: `Pin the current value of a field as a ${name} override, or remove one${siteNote}`,
            params,
            querystring: scope.writeQuery,
            body: ModifyOverridesRequest,
            response: { 204: NoContent },
          },
        },
        async (request) => {
          const { info, variant, level, actor } = await target(request, scope.write);
          await settings.modify(info, variant, level, request.body.action, path(request.body.path), actor);
        },
      );

      app.delete(
        `${BASE}/overrides${suffix}`,
        {
          schema: {
            summary: `Remove every ${name} override of the addon${siteNote}`,
            params,
            querystring: scope.writeQuery,
            response: { 204: NoContent },
          },
        },
        async (request) => {
          const { info, variant, level, actor } = await target(request, scope.write);
          await settings.clear(info, variant, level, actor);
        },
      );

      app.get(
        `${BASE}/rawOverrides${suffix}`,
        {
          schema: {
            summary: `The stored ${name} overrides as they are (administrators)`,
            params,
            querystring: scope.writeQuery,
            response: { 200: SettingsValue },
          },
        },
        async (request) => {
          const { info, variant, level } = await target(request, admin);
          return settings.rawOverrides(info, variant, level);
        },
      );

      app.put(
        `${BASE}/rawOverrides${suffix}`,
        {
          schema: {
            summary: `Set raw ${name} overrides for an addon (administrators; no validation)`,
            params,
            querystring: scope.writeQuery,
            body: SettingsValue,
            response: { 204: NoContent },
          },
        },
        async (request) => {
          const { info, variant, level, actor } = await target(request, admin);
          await settings.setRawOverrides(info, variant, level, request.body as Json, actor);
        },
      );
    }

    // --- Site settings (the addon's separate site schema), per site and user ---

    app.get(
      `${BASE}/siteSettings/schema`,
      {
        schema: {
          summary: 'Return the JSON schema of the addon site settings',
          params: AddonVersionParams,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        return settings.siteSchemaDocument(info);
      },
    );

    app.get(
      `${BASE}/siteSettings`,
      {
        schema: {
          summary: 'The caller\u2019s site settings of the addon (the defaults without a site)',
          params: AddonVersionParams,
          querystring: SiteQuery,
          response: { 200: SettingsValue },
        },
      },
      async (request) => {
        const info = settings.addon(request.params.addon_name, request.params.addon_version);
        return settings.siteSettings(info, machineOf(request), request.caller.name);
      },
    );

    app.put(
      `${BASE}/siteSettings`,
      {
        schema: {
          summary:
            'Set the caller\u2019s site settings of the addon (the whole value; keys left out take the defaults)',
          params: AddonVersionParams,
          querystring: SiteQuery,
          body: SettingsValue,
          response: { 204: NoContent },
        },
      },
      async (request) => {
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
        await settings.setSiteSettings(info, site, request.caller.name, request.body as Json, {
          user: request.caller.name,
        });
      },
    );
  };
}
