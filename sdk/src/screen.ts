// The contract between the web app and an addon's screens (Module Federation remotes built with the rsbuild
// preset): what the host passes to every exposed component it mounts. Type-only, so remotes import it freely.
import type { PipewrightClient } from './client/index.js';

/** The logged-in user, as far as screens need to know. */
export interface ScreenUser {
  name: string;
  isAdmin: boolean;
  isManager: boolean;
}

/** What the web app hands every addon screen it mounts. */
export interface ScreenProps {
  /** The project the user works in, or null when none is chosen. */
  project: string | null;
  user: ScreenUser;
  /**
   * The web app's API client for this session: typed REST calls, GraphQL, operations batches and live events, all
   * as the logged-in user. A 401 through it (the session ended on the server) takes the user back to the login
   * page, so screens need not handle expiry themselves.
   */
  client: PipewrightClient;
  /** The session token, for what cannot go through the client (an <img> or download URL, a third-party library). */
  token: string;
  /** The addon version this screen belongs to: its own routes are under /api/addons/{name}/{version}/. */
  addon: { name: string; version: string };
  /** Where the screen's own links start (/addon/{name}/{remote}); sub-pages may append to it. */
  basePath: string;
}
