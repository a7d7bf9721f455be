import { sql } from 'kysely';
import {
  BadRequest,
  Forbidden,
  NotFound,
  isManagerOrAbove,
  PROJECT_ENTITY_TYPES,
  type AddonContext,
  type EventChanges,
  type ProjectEntityType,
  type RequestUser,
} from '@pipewright/sdk';
import type { AnatomyPresets } from '@pipewright/plugin-anatomy/api';
import type { BundleDirectory } from '@pipewright/plugin-bundles/api';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { SecretStore } from '@pipewright/plugin-secrets/api';
import type { AddonSettings } from '@pipewright/plugin-settings/api';
import type { CallbackHandler } from './sidecar.js';
import type { CallOrigin } from './origin.js';

// What addon code may ask of the server while it answers (README.md, "Sidecar to server"). Every answer is checked
// against the request the callback is made for: a user's request reads what that user may read; the server's own
// calls (computing settings) read the studio's configuration only.

const ENTITY_TYPES = new Set<string>(PROJECT_ENTITY_TYPES);

const text = (params: Record<string, unknown>, key: string): string => {
  const value = params[key];
  if (typeof value !== 'string' || value === '') throw new BadRequest(`${key} must be a non-empty string`);
  return value;
};
const optionalText = (params: Record<string, unknown>, key: string): string | null =>
  params[key] === null || params[key] === undefined ? null : text(params, key);

function userOf(origin: CallOrigin, what: string): RequestUser {
  if (!origin.user) throw new Forbidden(`${what} is read only for a user's request`);
  return origin.user;
}

/** The services the callbacks read through. */
export interface CallbackServices {
  projects: ProjectDirectory;
  anatomy: AnatomyPresets;
  entities: EntityDirectory;
  settings: AddonSettings;
  secrets: SecretStore;
  bundles: BundleDirectory;
}

export function serverCallbacks(ctx: AddonContext, services: CallbackServices): CallbackHandler {
  const { projects, anatomy } = services;

  /** The project, as the origin may see it: any for the server's own calls, an accessible one for a user's. */
  const projectFor = async (origin: CallOrigin, name: string) => {
    if (origin.user) return projects.require(origin.user, name);
    const project = await projects.find(name);
    if (!project) throw new NotFound(`Project ${name} not found`);
    return project;
  };

  const handlers: Record<string, (params: Record<string, unknown>, origin: CallOrigin) => Promise<unknown>> =
    {
      async settings(params, origin) {
        const project = optionalText(params, 'projectName');
        if (project) await projectFor(origin, project);
        // A site's overrides are its user's own: read for the user the request is for.
        const site = optionalText(params, 'siteId');
        return services.settings.values(text(params, 'addonName'), text(params, 'addonVersion'), {
          variant: optionalText(params, 'variant') ?? 'production',
          ...(project ? { project } : {}),
          ...(project && site && origin.user ? { site: { id: site, user: origin.user.name } } : {}),
        });
      },
      async anatomy(params, origin) {
        const name = optionalText(params, 'projectName');
        if (!name) return anatomy.get('_');
        return anatomy.fromProject(await projectFor(origin, name));
      },
      async project(params, origin) {
        return projectFor(origin, text(params, 'projectName'));
      },
      async projects(_params, origin) {
        const user = userOf(origin, 'The project list');
        const names = await projects.visibleNames(user);
        const found = await Promise.all(names.map((name) => projects.find(name)));
        return found.flatMap((project) =>
          project
            ? [
                {
                  name: project.name,
                  code: project.code,
                  active: project.active,
                  library: project.library,
                  createdAt: project.createdAt,
                },
              ]
            : [],
        );
      },
      async entity(params, origin) {
        const user = userOf(origin, 'An entity');
        const type = text(params, 'entityType');
        if (!ENTITY_TYPES.has(type)) throw new BadRequest(`${type} is not an entity type`);
        const project = (await projects.require(user, text(params, 'projectName'))).name;
        const entity = await services.entities.get(
          project,
          type as ProjectEntityType,
          text(params, 'entityId'),
          user,
        );
        if (!entity) throw new NotFound(`${type} ${String(params.entityId)} not found`);
        return entity;
      },
      async secrets() {
        return services.secrets.names();
      },
      async secret(params, origin) {
        const user = userOf(origin, 'A secret value');
        // As AYON's own Secrets API: values are for administrators and services.
        if (!user.isAdmin && !user.isService)
          throw new Forbidden('Only administrators and services read secrets');
        return services.secrets.get(text(params, 'name'));
      },
      async dispatchEvent(params, origin) {
        const user = userOf(origin, 'An event');
        const summary = params.summary && typeof params.summary === 'object' ? params.summary : {};
        const payload = params.payload && typeof params.payload === 'object' ? params.payload : {};
        const project = optionalText(params, 'project');
        if (project) await projects.require(user, project);
        return ctx.events.emit({
          topic: text(params, 'topic'),
          description: optionalText(params, 'description') ?? undefined,
          summary: summary as Record<string, unknown>,
          payload: payload as Record<string, unknown>,
          project,
          user: user.name,
          senderType: 'addon',
          ...(params.status ? { status: params.status as 'finished' } : {}),
        });
      },
      async launcher(params, origin) {
        if (!origin.executor) throw new Forbidden('Only an action being executed hands over to the launcher');
        const args = params.args;
        if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string'))
          throw new BadRequest('args must be a list of strings');
        const message = optionalText(params, 'message');
        return origin.executor.launcher(args as string[], message ? { message } : {});
      },
      async actionConfig(params, origin) {
        const user = userOf(origin, "An action's settings");
        const hash = text(params, 'hash');
        const own = ctx.db
          .selectFrom('ayon_action_config')
          .where('hash', '=', hash)
          .where('user_name', '=', user.name);
        if (params.config === null || params.config === undefined) {
          return (await own.select('data').executeTakeFirst())?.data ?? {};
        }
        // Stored only as the user the request is for: an addon cannot write someone else's settings.
        if (text(params, 'userName') !== user.name)
          throw new Forbidden("Only the caller's own settings are stored");
        const config = params.config;
        if (typeof config !== 'object' || Array.isArray(config))
          throw new BadRequest('config must be an object');
        if (Object.keys(config).length === 0) {
          // {} deletes, as AYON's set_action_config does.
          await ctx.db
            .deleteFrom('ayon_action_config')
            .where('hash', '=', hash)
            .where('user_name', '=', user.name)
            .execute();
          return null;
        }
        const data = JSON.stringify(config);
        // One statement: another user's row under the same key is never overwritten.
        await ctx.db
          .insertInto('ayon_action_config')
          .values({
            hash,
            addon_name: text(params, 'addonName'),
            addon_version: text(params, 'addonVersion'),
            identifier: text(params, 'identifier'),
            project_name: optionalText(params, 'projectName'),
            user_name: user.name,
            data,
          })
          .onConflict((conflict) =>
            conflict
              .column('hash')
              .doUpdateSet({ data, updated_at: sql`now()` })
              .where('ayon_action_config.user_name', '=', user.name),
          )
          .execute();
        return null;
      },
      async updateEvent(params, origin) {
        const user = userOf(origin, 'An event');
        const id = text(params, 'eventId');
        const event = await ctx.events.get(id);
        if (!event) return false;
        // As PATCH /api/events: one's own events, or any for managers and services.
        if (event.user !== user.name && !isManagerOrAbove(user))
          throw new Forbidden('Not your event to change');
        const changes: Record<string, unknown> = {};
        for (const key of ['status', 'description', 'summary', 'payload', 'progress', 'retries']) {
          if (params[key] !== null && params[key] !== undefined) changes[key] = params[key];
        }
        await ctx.events.update(id, changes as EventChanges);
        return true;
      },
      async bundles() {
        const bundles = services.bundles;
        const [production, staging] = await Promise.all([
          bundles.forVariant('production'),
          bundles.forVariant('staging'),
        ]);
        return { production: production?.addons ?? {}, staging: staging?.addons ?? {}, dev: {} };
      },
    };

  return (method, params, origin) => {
    const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
    if (!handler) return Promise.reject(new NotFound(`The server has no callback ${method}`));
    return handler(params, origin);
  };
}
