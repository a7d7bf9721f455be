import type { FastifyBaseLogger } from 'fastify';
import {
  NotFound,
  type ActionContext,
  type ActionLookup,
  type ActionManifest,
  type AddonActions,
  type AddonInfo,
  type SimpleActionManifest,
} from '@pipewright/sdk';

// The running addons that contribute actions, and the actions each lists. One addon failing to list its actions
// must not take everyone's action menu with it: it is logged and skipped.

/** A running addon with its actions. */
export interface Provider {
  addon: AddonInfo;
  actions: AddonActions;
}

/** The enabled addons that contribute actions. */
export class ActionProviders {
  constructor(
    private readonly addons: () => AddonInfo[],
    private readonly log: FastifyBaseLogger,
  ) {}

  all(): Provider[] {
    return this.addons()
      .filter((addon) => addon.enabled && addon.actions)
      .map((addon) => ({ addon, actions: addon.actions! }));
  }

  /** One addon version's actions; NotFound when it is not running or has none. */
  require(name: string, version: string): Provider {
    const found = this.all().find(({ addon }) => addon.name === name && addon.version === version);
    if (!found) throw new NotFound(`Addon ${name} ${version} is not running or has no actions`);
    return found;
  }

  /** The simple actions an addon lists (whatever the context: they say themselves where they apply). */
  async simpleOf({ addon, actions }: Provider, lookup: ActionLookup): Promise<SimpleActionManifest[]> {
    if (!actions.simple) return [];
    return this.listed(addon, 'simple', () =>
      typeof actions.simple === 'function' ? actions.simple(lookup) : actions.simple,
    );
  }

  /** The dynamic actions an addon offers in a context. */
  async dynamicOf(
    { addon, actions }: Provider,
    context: ActionContext,
    lookup: ActionLookup,
  ): Promise<ActionManifest[]> {
    if (!actions.dynamic) return [];
    return this.listed(addon, 'dynamic', () => actions.dynamic!(context, lookup));
  }

  private async listed<T extends ActionManifest>(
    addon: AddonInfo,
    kind: 'simple' | 'dynamic',
    list: () => unknown,
  ): Promise<T[]> {
    try {
      return wellFormed<T>(await list(), addon, this.log);
    } catch (error) {
      this.log.error({ err: error, addon: addon.name }, `listing ${kind} actions failed`);
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
