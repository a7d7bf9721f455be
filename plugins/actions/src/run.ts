import type {
  ActionContext,
  ActionExecutor,
  ActionManifest,
  ActionResponse,
  AddonActions,
  AddonInfo,
  RequestUser,
} from '@pipewright/sdk';
import type { LauncherQueue } from './launcher.js';
import type { ActionQuery } from './schemas.js';

// Running one action: the executor its addon is handed, and the addon's answer checked and completed for the
// client.

const RESPONSE_TYPES = new Set(['form', 'launcher', 'navigate', 'query', 'redirect', 'simple']);

/** Everything a run needs besides the addon: what was asked, where, by whom, and the caller's settings. */
export interface Run {
  which: ActionQuery;
  action: ActionManifest;
  context: ActionContext;
  user: RequestUser;
  serverUrl: string;
  getConfig: () => Promise<Record<string, unknown>>;
}

/** Run an action of an addon and answer how the client goes on (the addon may hand it to the launcher). */
export async function runAction(
  addon: AddonInfo,
  actions: AddonActions,
  run: Run,
  launcher: LauncherQueue,
): Promise<ActionResponse> {
  const { which, action, context, user, serverUrl } = run;
  const executor: ActionExecutor = {
    identifier: which.identifier,
    addonName: addon.name,
    addonVersion: addon.version,
    variant: which.variant,
    user,
    context,
    serverUrl,
    getConfig: run.getConfig,
    launcher: async (args, options = {}) => {
      const { token, eventId } = await launcher.handOver(
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
    throw new Error(`Addon ${addon.name} answered action ${which.identifier} with an unknown response type`);
  }
  return {
    type: response.type,
    success: response.success ?? true,
    message: response.message ?? null,
    payload: response.payload ?? null,
    ...(response.uri !== undefined ? { uri: response.uri } : {}),
  };
}
