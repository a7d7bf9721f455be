import type { ActionExecutor, RequestUser } from '@pipewright/sdk';

/**
 * Whom a call to the sidecar is made for, and so what its callbacks may do: read as that user, hand an action to
 * that user's launcher. Calls the server makes on its own account (settings it computes, loading a package) have no
 * user: their callbacks may read the studio's configuration (anatomy, settings, bundles), never its data.
 */
export interface CallOrigin {
  user: RequestUser | null;
  executor?: ActionExecutor;
}

export const SERVER: CallOrigin = { user: null };
