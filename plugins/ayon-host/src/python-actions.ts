import type {
  ActionContext,
  ActionResponse,
  AddonActions,
  DynamicActionManifest,
  RequestUser,
  SimpleActionManifest,
} from '@pipewright/sdk';
import { TIMEOUTS, type AyonHost } from './host.js';
import type { PackageDescription } from './description.js';

// An AYON package's actions (ayon-applications' "launch Maya on this task", ayon-core's folder structure), listed
// and run by the actions addon like any addon's: the package's own get_simple_actions, get_dynamic_actions and
// execute_action answer in the sidecar, for the user who asked.

/** The caller as addon code sees it (CurrentUser, executor.user). */
export function userForAddon(user: RequestUser | null) {
  if (!user) return null;
  return {
    name: user.name,
    isAdmin: user.isAdmin,
    isManager: user.isManager,
    isService: user.isService,
    isGuest: user.isGuest,
    accessGroups: user.accessGroups,
  };
}

export function pythonActions(host: AyonHost, description: PackageDescription): AddonActions | undefined {
  const { name, version, hasSimpleActions, hasDynamicActions } = description;
  if (!hasSimpleActions && !hasDynamicActions) return undefined;
  return {
    ...(hasSimpleActions
      ? {
          simple: ({ user, variant, projectName }) =>
            host.call<SimpleActionManifest[]>(
              name,
              version,
              'simpleActions',
              { projectName, variant },
              { user },
              TIMEOUTS.actions,
            ),
        }
      : {}),
    ...(hasDynamicActions
      ? {
          dynamic: (context: ActionContext, { user, variant }) =>
            host.call<DynamicActionManifest[]>(
              name,
              version,
              'dynamicActions',
              { context, variant },
              { user },
              TIMEOUTS.actions,
            ),
        }
      : {}),
    execute: (executor) =>
      host.call<ActionResponse>(
        name,
        version,
        'executeAction',
        {
          identifier: executor.identifier,
          context: executor.context,
          variant: executor.variant,
          user: userForAddon(executor.user),
          serverUrl: executor.serverUrl,
        },
        { user: executor.user, executor },
        TIMEOUTS.actions,
      ),
    // The package keys its actions' settings itself (create_action_config_hash) and stores them through the
    // actionConfig callback.
    config: ({ identifier, variant, context, user, value }) =>
      host.call<Record<string, unknown>>(
        name,
        version,
        'actionConfig',
        { identifier, variant, context, user: userForAddon(user), config: value },
        { user },
        TIMEOUTS.actions,
      ),
  };
}
