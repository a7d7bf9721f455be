// The contract between the web app and an addon's screens (Module Federation remotes built with the rsbuild
// preset): what the host passes to every exposed component it mounts. Type-only, so remotes import it freely.
import type { ComponentType, ReactNode } from 'react';
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
  /**
   * Renders a module another addon exposes, inside this screen (the activity feed in the overview's detail
   * panel): a remote never imports another remote's files, the host loads the module for it. The module gets
   * these same ScreenProps (its own addon and basePath) plus `props`.
   */
  Extension: ComponentType<ExtensionProps>;
}

/** What ScreenProps.Extension takes. */
export interface ExtensionProps {
  /** "remote/Exposed" as the other addon lists it in frontendModules, e.g. "activities_screens/ActivityFeed". */
  module: string;
  /** Passed to the module besides the ScreenProps. */
  props?: Record<string, unknown>;
  /**
   * Shown instead when the addon is not installed or its module fails to load; without it, a short muted note
   * says so. Either way the screen around it goes on working.
   */
  fallback?: ReactNode;
}
