import type { FastifyBaseLogger } from 'fastify';
import {
  Forbidden,
  NotFound,
  type ActionContext,
  type ActionLookup,
  type ActionResponse,
  type AddonInfo,
  type Database,
  type EventBus,
  type RequestUser,
} from '@pipewright/sdk';
import { readConfig, saveConfig, type ConfigKey } from './config-store.js';
import { appliesTo, mayRun, requireProjectAccess } from './context.js';
import { item, sortActions } from './items.js';
import { LauncherQueue } from './launcher.js';
import { ActionProviders } from './providers.js';
import { runAction } from './run.js';
import type { ActionItem, ActionQuery } from './schemas.js';

// The actions addon's service: each route calls one method. Listing asks the providers (providers.ts) and filters
// by context and rights (context.ts); a run goes through run.ts; launcher hand-overs are events (launcher.ts).

export type ListMode = 'simple' | 'dynamic' | 'all';

const configKey = (
  addon: AddonInfo,
  which: ActionQuery,
  user: RequestUser,
  context: ActionContext,
): ConfigKey => ({
  addonName: addon.name,
  identifier: which.identifier,
  userName: user.name,
  projectName: context.projectName,
});

export class ActionService {
  private readonly providers: ActionProviders;
  private readonly launcher: LauncherQueue;

  constructor(
    private readonly db: Database,
    events: EventBus,
    addons: () => AddonInfo[],
    log: FastifyBaseLogger,
  ) {
    this.providers = new ActionProviders(addons, log);
    this.launcher = new LauncherQueue(events);
  }

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
    for (const provider of this.providers.all()) {
      if (mode !== 'dynamic') {
        for (const action of await this.providers.simpleOf(provider, lookup)) {
          if (appliesTo(action, context) && mayRun(action, user))
            found.push(item(action, provider.addon, variant, 'simple'));
        }
      }
      if (mode !== 'simple') {
        for (const action of await this.providers.dynamicOf(provider, context, lookup)) {
          if (mayRun(action, user)) found.push(item(action, provider.addon, variant, 'dynamic'));
        }
      }
    }
    return sortActions(found);
  }

  /** Every simple action of every addon, whatever the context, with where each applies (the manager's overview). */
  async manage(user: RequestUser, variant: string): Promise<ActionItem[]> {
    const lookup: ActionLookup = { user, variant, projectName: null };
    const found: ActionItem[] = [];
    for (const provider of this.providers.all()) {
      for (const action of await this.providers.simpleOf(provider, lookup)) {
        found.push({
          ...item(action, provider.addon, variant, 'simple'),
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
    serverUrl: string,
  ): Promise<ActionResponse> {
    requireProjectAccess(user, context.projectName);
    const provider = this.providers.require(which.addonName, which.addonVersion);
    const { addon, actions } = provider;
    const lookup: ActionLookup = { user, variant: which.variant, projectName: context.projectName };
    // Simple actions are found whatever the context (a client may run one from a view we did not list it in);
    // dynamic ones exist only for the contexts their addon offers them in.
    const action =
      (await this.providers.simpleOf(provider, lookup)).find((a) => a.identifier === which.identifier) ??
      (await this.providers.dynamicOf(provider, context, lookup)).find(
        (a) => a.identifier === which.identifier,
      );
    if (!action) throw new NotFound(`Action ${which.identifier} not found in ${addon.name} ${addon.version}`);
    if (!mayRun(action, user)) throw new Forbidden(`You may not run the action ${which.identifier}`);
    const getConfig = () => readConfig(this.db, configKey(addon, which, user, context));
    const run = { which, action, context, user, serverUrl, getConfig };
    return runAction(addon, actions, run, this.launcher);
  }

  /** The caller's settings of an action, saved first when a value is given (as AYON: a null value reads). */
  async config(
    which: ActionQuery,
    context: ActionContext,
    user: RequestUser,
    value: Record<string, unknown> | null | undefined,
  ): Promise<Record<string, unknown>> {
    requireProjectAccess(user, context.projectName);
    const { addon, actions } = this.providers.require(which.addonName, which.addonVersion);
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
    const key = configKey(addon, which, user, context);
    if (value === undefined || value === null) return readConfig(this.db, key);
    await saveConfig(this.db, key, addon.version, value);
    return value;
  }

  /** The launcher claims a pending action by its token (see LauncherQueue.take). */
  take(token: string, caller: RequestUser) {
    return this.launcher.take(token, caller);
  }

  /** The launcher gives up on an action (pending or taken): the event is aborted with the launcher's message. */
  abort(token: string, caller: RequestUser, message: string): Promise<void> {
    return this.launcher.abort(token, caller, message);
  }
}
