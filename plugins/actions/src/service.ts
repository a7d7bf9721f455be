import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import {
  Conflict,
  Forbidden,
  NotFound,
  isManagerOrAbove,
  type ActionContext,
  type ActionEntityType,
  type ActionExecutor,
  type ActionIcon,
  type ActionLookup,
  type ActionManifest,
  type ActionResponse,
  type AddonActions,
  type AddonInfo,
  type Database,
  type EventBus,
  type EventMessage,
  type RequestUser,
  type Sender,
  type SimpleActionManifest,
} from '@pipewright/sdk';
import type { ActionContextBody, ActionItem, ActionQuery } from './schemas.js';

/** Topic of the events that hand an action over to a desktop launcher. */
export const LAUNCHER_TOPIC = 'action.launcher';

export type ListMode = 'simple' | 'dynamic' | 'all';

const RESPONSE_TYPES = new Set(['form', 'launcher', 'navigate', 'query', 'redirect', 'simple']);

/** What a launcher event's payload holds: everything the launcher needs to run the action. */
interface LauncherPayload {
  args: string[];
  context: ActionContext;
  identifier: string;
  addonName: string;
  addonVersion: string;
  variant: string;
  userName: string;
}

interface Provider {
  addon: AddonInfo;
  actions: AddonActions;
}

/**
 * A context with every field present, whatever the client left out, read as AYON reads it: without a project the
 * entity fields mean nothing (global actions), and an entity type without ids selects none.
 */
export function toContext(body: ActionContextBody): ActionContext {
  const projectName = body.projectName || null;
  const entityType = projectName ? ((body.entityType ?? null) as ActionEntityType | null) : null;
  return {
    projectName,
    entityType,
    entityIds: entityType ? (body.entityIds ?? []) : null,
    entitySubtypes: projectName ? (body.entitySubtypes ?? null) : null,
    formData: body.formData ?? null,
  };
}

/**
 * Whether a simple action applies to a context, by AYON's rules: the same entity type; a project-wide action
 * always applies to its project; otherwise a selection, of one entity unless the action takes several, and a
 * shared subtype when the action names subtypes.
 */
export function appliesTo(action: SimpleActionManifest, context: ActionContext): boolean {
  if ((action.entityType ?? null) !== context.entityType) return false;
  if (!context.entityType) return true;
  if (context.entityType === 'project') return true;
  const selected = context.entityIds?.length ?? 0;
  if (selected === 0) return false;
  if (!action.allowMultiselection && selected > 1) return false;
  if (!action.entitySubtypes?.length) return true;
  const subtypes = context.entitySubtypes ?? [];
  if (context.entityType === 'list')
    return subtypes.some((subtype) => listSubtypeMatches(action.entitySubtypes!, subtype));
  const wanted = new Set(action.entitySubtypes);
  return subtypes.some((subtype) => wanted.has(subtype));
}

/**
 * A list's subtype is "<entity type>:<list type>" ("version:review-session"); an action's subtype names the entity
 * type and optionally the list type, so "version" matches every list of versions.
 */
function listSubtypeMatches(actionSubtypes: string[], contextSubtype: string): boolean {
  const [entity, listType = null] = contextSubtype.split(/:(.*)/s);
  return actionSubtypes.some((subtype) => {
    const [wantedEntity, wantedList = null] = subtype.split(/:(.*)/s);
    return wantedEntity === entity && (wantedList === null || wantedList === listType);
  });
}

function mayRun(action: ActionManifest, user: RequestUser): boolean {
  if (action.adminOnly && !(user.isAdmin || user.isService)) return false;
  if (action.managerOnly && !isManagerOrAbove(user)) return false;
  return true;
}

/** Normal users reach a project only through an access group on it (project names compare case-insensitively). */
export function requireProjectAccess(user: RequestUser, projectName: string | null): void {
  if (!projectName || isManagerOrAbove(user)) return;
  const wanted = projectName.toLowerCase();
  if (!Object.keys(user.accessGroups).some((name) => name.toLowerCase() === wanted)) {
    throw new Forbidden(`You do not have access to project ${projectName}`);
  }
}

const sameUser = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

export class ActionService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly addons: () => AddonInfo[],
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The actions that apply to a context, for this user: simple ones matched here, dynamic ones asked of their addons. */
  async list(
    context: ActionContext,
    user: RequestUser,
    variant: string,
    mode: ListMode,
  ): Promise<ActionItem[]> {
    requireProjectAccess(user, context.projectName);
    const lookup: ActionLookup = { user, variant, projectName: context.projectName };
    const found: ActionItem[] = [];
    for (const { addon, actions } of this.providers()) {
      if (mode !== 'dynamic') {
        const simple = await this.simpleOf(addon, actions, lookup);
        for (const action of simple) {
          if (appliesTo(action, context) && mayRun(action, user))
            found.push(item(action, addon, variant, 'simple'));
        }
      }
      if (mode !== 'simple') {
        const dynamic = await this.dynamicOf(addon, actions, context, lookup);
        for (const action of dynamic) {
          if (mayRun(action, user)) found.push(item(action, addon, variant, 'dynamic'));
        }
      }
    }
    return sortActions(found);
  }

  /** Every simple action of every addon, whatever the context, with where each applies (the manager's overview). */
  async manage(user: RequestUser, variant: string): Promise<ActionItem[]> {
    const lookup: ActionLookup = { user, variant, projectName: null };
    const found: ActionItem[] = [];
    for (const { addon, actions } of this.providers()) {
      for (const action of await this.simpleOf(addon, actions, lookup)) {
        found.push({
          ...item(action, addon, variant, 'simple'),
          entityType: action.entityType ?? null,
          entitySubtypes: action.entitySubtypes ?? null,
          allowMultiselection: action.allowMultiselection ?? false,
        });
      }
    }
    return sortActions(found);
  }

  /** Run one action: the addon answers how the client goes on (and may hand the action to the launcher). */
  async execute(
    which: ActionQuery,
    context: ActionContext,
    user: RequestUser,
    sender: Sender,
    serverUrl: string,
  ): Promise<ActionResponse> {
    requireProjectAccess(user, context.projectName);
    const { addon, actions } = this.provider(which.addonName, which.addonVersion);
    const lookup: ActionLookup = { user, variant: which.variant, projectName: context.projectName };
    // Simple actions are found whatever the context (a client may run one from a view we did not list it in);
    // dynamic ones exist only for the contexts their addon offers them in.
    const action =
      (await this.simpleOf(addon, actions, lookup)).find((a) => a.identifier === which.identifier) ??
      (await this.dynamicOf(addon, actions, context, lookup)).find((a) => a.identifier === which.identifier);
    if (!action) throw new NotFound(`Action ${which.identifier} not found in ${addon.name} ${addon.version}`);
    if (!mayRun(action, user)) throw new Forbidden(`You may not run the action ${which.identifier}`);

    const executor: ActionExecutor = {
      identifier: which.identifier,
      addonName: addon.name,
      addonVersion: addon.version,
      variant: which.variant,
      user,
      context,
      serverUrl,
      getConfig: () => this.readConfig(addon.name, which.identifier, user.name, context.projectName),
      launcher: async (args, options = {}) => {
        const { token, eventId } = await this.handToLauncher(
          {
            args,
            context,
            identifier: which.identifier,
            addonName: addon.name,
            addonVersion: addon.version,
            variant: which.variant,
            userName: user.name,
          },
          action.label,
          sender,
        );
        const uri = `ayon-launcher://action?server_url=${encodeURIComponent(serverUrl)}&token=${token}`;
        return {
          type: 'launcher',
          success: true,
          message: options.message ?? null,
          uri,
          payload: { uri, token, eventId },
        };
      },
    };
    const response = await actions.execute(executor);
    if (!response || !RESPONSE_TYPES.has(response.type)) {
      throw new Error(
        `Addon ${addon.name} answered action ${which.identifier} with an unknown response type`,
      );
    }
    return {
      type: response.type,
      success: response.success ?? true,
      message: response.message ?? null,
      payload: response.payload ?? null,
      ...(response.uri !== undefined ? { uri: response.uri } : {}),
    };
  }

  /** The caller's settings of an action, saved first when a value is given (as AYON: a null value reads). */
  async config(
    which: ActionQuery,
    context: ActionContext,
    user: RequestUser,
    value: Record<string, unknown> | null | undefined,
  ): Promise<Record<string, unknown>> {
    requireProjectAccess(user, context.projectName);
    const { addon, actions } = this.provider(which.addonName, which.addonVersion);
    if (actions.config) {
      const request = {
        identifier: which.identifier,
        variant: which.variant,
        context,
        user,
        value: value ?? null,
      };
      return actions.config(request);
    }
    if (value === undefined || value === null) {
      return this.readConfig(addon.name, which.identifier, user.name, context.projectName);
    }
    const data = JSON.stringify(value);
    await this.db
      .insertInto('action_config')
      .values({
        addon_name: addon.name,
        identifier: which.identifier,
        user_name: user.name,
        project_name: context.projectName ?? '',
        addon_version: addon.version,
        data,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['addon_name', 'identifier', 'user_name', 'project_name'])
          .doUpdateSet({ data, addon_version: addon.version, updated_at: sql`now()` }),
      )
      .execute();
    return value;
  }

  /**
   * The launcher claims a pending action by its token: the event goes to in_progress and its payload is answered.
   * The claim is one conditional UPDATE, so two launchers racing for one token cannot both get it.
   */
  async take(token: string, caller: RequestUser) {
    const event = await this.launcherEvent(token, caller);
    const claimed = await sql<Record<string, any>>`
      UPDATE public.events SET status = 'in_progress', description = 'Action taken by the launcher', updated_at = now()
      WHERE id = ${event.id} AND status = 'pending'
      RETURNING id`.execute(this.db);
    if (claimed.rows.length === 0)
      throw new Conflict(`This action was already taken (it is ${event.status})`);
    await this.announce(event.id);
    const payload = event.payload as LauncherPayload;
    return {
      eventId: event.id as string,
      actionIdentifier: payload.identifier,
      args: payload.args ?? [],
      context: payload.context,
      addonName: payload.addonName,
      addonVersion: payload.addonVersion,
      variant: payload.variant,
      userName: payload.userName ?? event.user_name,
    };
  }

  /** The launcher gives up on an action (pending or taken): the event is aborted with the launcher's message. */
  async abort(token: string, caller: RequestUser, message: string): Promise<void> {
    const event = await this.launcherEvent(token, caller);
    const aborted = await sql<Record<string, any>>`
      UPDATE public.events SET status = 'aborted', description = ${message}, updated_at = now()
      WHERE id = ${event.id} AND status IN ('pending', 'in_progress')
      RETURNING id`.execute(this.db);
    if (aborted.rows.length === 0)
      throw new Conflict(`This action has already ended (it is ${event.status})`);
    await this.announce(event.id);
  }

  private async handToLauncher(payload: LauncherPayload, label: string, sender: Sender) {
    // 32 random bytes: the token alone lets a launcher claim the action, so it must not be guessable.
    const token = randomBytes(32).toString('hex');
    const { id } = await this.events.emit({
      topic: LAUNCHER_TOPIC,
      hash: token,
      status: 'pending',
      project: payload.context.projectName,
      user: payload.userName,
      sender: sender.sender,
      senderType: sender.senderType,
      description: `${label}: waiting for the launcher`,
      // Broadcast to subscribers, so no token here: only the stored payload and the hash hold it.
      summary: {
        addonName: payload.addonName,
        addonVersion: payload.addonVersion,
        identifier: payload.identifier,
      },
      payload: { ...payload },
    });
    return { token, eventId: id };
  }

  /** The launcher event of a token, for its owner (or an admin or service); 404 for a token nobody issued. */
  private async launcherEvent(token: string, caller: RequestUser): Promise<Record<string, any>> {
    const event = await this.db
      .selectFrom('public.events')
      .select(['id', 'status', 'user_name', 'payload'])
      .where('hash', '=', token)
      .where('topic', '=', LAUNCHER_TOPIC)
      .executeTakeFirst();
    if (!event) throw new NotFound('Invalid action token');
    if (!sameUser(event.user_name, caller.name) && !caller.isAdmin && !caller.isService) {
      throw new Forbidden('This action was started by another user');
    }
    return event;
  }

  /** Tell subscribers (websocket clients, other processes) that the event's status changed. */
  private async announce(id: string): Promise<void> {
    const stored = await this.events.get(id);
    if (!stored) return;
    const { payload: _payload, retries: _retries, ...message } = stored;
    await this.events.announce(message as EventMessage);
  }

  private async readConfig(
    addonName: string,
    identifier: string,
    userName: string,
    projectName: string | null,
  ) {
    const row = await this.db
      .selectFrom('action_config')
      .select('data')
      .where('addon_name', '=', addonName)
      .where('identifier', '=', identifier)
      .where('user_name', '=', userName)
      .where('project_name', '=', projectName ?? '')
      .executeTakeFirst();
    return (row?.data ?? {}) as Record<string, unknown>;
  }

  private providers(): Provider[] {
    return this.addons()
      .filter((addon) => addon.enabled && addon.actions)
      .map((addon) => ({ addon, actions: addon.actions! }));
  }

  private provider(name: string, version: string): Provider {
    const found = this.providers().find(({ addon }) => addon.name === name && addon.version === version);
    if (!found) throw new NotFound(`Addon ${name} ${version} is not running or has no actions`);
    return found;
  }

  // One addon failing to list its actions must not take everyone's action menu with it: it is logged and skipped.
  private async simpleOf(
    addon: AddonInfo,
    actions: AddonActions,
    lookup: ActionLookup,
  ): Promise<SimpleActionManifest[]> {
    if (!actions.simple) return [];
    try {
      const listed = typeof actions.simple === 'function' ? await actions.simple(lookup) : actions.simple;
      return wellFormed(listed, addon, this.log);
    } catch (error) {
      this.log.error({ err: error, addon: addon.name }, 'listing simple actions failed');
      return [];
    }
  }

  private async dynamicOf(
    addon: AddonInfo,
    actions: AddonActions,
    context: ActionContext,
    lookup: ActionLookup,
  ): Promise<ActionManifest[]> {
    if (!actions.dynamic) return [];
    try {
      return wellFormed(await actions.dynamic(context, lookup), addon, this.log);
    } catch (error) {
      this.log.error({ err: error, addon: addon.name }, 'listing dynamic actions failed');
      return [];
    }
  }
}

/** Manifests with an identifier and a label; anything else is an addon bug, logged rather than answered as a 500. */
function wellFormed<T extends ActionManifest>(
  listed: unknown,
  addon: AddonInfo,
  log: FastifyBaseLogger,
): T[] {
  if (!Array.isArray(listed)) {
    log.error({ addon: addon.name }, 'an addon listed actions that are not an array');
    return [];
  }
  return listed.filter((action): action is T => {
    const ok =
      typeof action?.identifier === 'string' && action.identifier !== '' && typeof action.label === 'string';
    if (!ok)
      log.error({ addon: addon.name, action }, 'an addon listed an action without identifier or label');
    return ok;
  });
}

function item(
  action: ActionManifest,
  addon: AddonInfo,
  variant: string,
  mode: 'simple' | 'dynamic',
): ActionItem {
  return {
    identifier: action.identifier,
    label: action.label,
    groupLabel: action.groupLabel ?? null,
    category: action.category ?? 'General',
    order: action.order ?? 100,
    icon: action.icon ? withAddonUrl(action.icon, addon) : null,
    featured: action.featured ?? false,
    adminOnly: action.adminOnly ?? false,
    managerOnly: action.managerOnly ?? false,
    configFields: action.configFields ?? null,
    addonName: addon.name,
    addonVersion: addon.version,
    variant,
    mode,
  };
}

/** An icon's URL may name its addon's own files as {addon_url} (as AYON's actions do): filled in for the client. */
function withAddonUrl(icon: ActionIcon, addon: AddonInfo): ActionIcon {
  if (!icon.url?.includes('{addon_url}')) return icon;
  return { ...icon, url: icon.url.replaceAll('{addon_url}', `/addons/${addon.name}/${addon.version}`) };
}

function sortActions(actions: ActionItem[]): ActionItem[] {
  return actions.sort((a, b) => a.order - b.order || a.label.localeCompare(b.label));
}
