import { createServiceRef } from '@pipewright/sdk';
import type { ProjectMetricsCollector } from './metrics.js';
import type { RestartStatus } from './restart.js';
import type { ServerConfig } from './server-config.js';
import type { UserSite } from './sites.js';

/** What the system addon offers addons that name systemRef in their deps. */
export interface SystemService {
  /**
   * Tell administrators the server must restart for a change to take effect (attribute definitions, installed
   * addons): sets the flag every server process answers on GET /api/system/restartRequired.
   */
  requireRestart(reason: string): Promise<void>;
  /** The restart-required flag as every process sees it. */
  restartStatus(): Promise<RestartStatus>;
  /** The server configuration, defaults filled in (the login message, studio name, ...). */
  serverConfig(): Promise<ServerConfig>;
  /** Add fields to each project's entry of GET /api/metrics (entity counts, storage used, ...). */
  addProjectMetrics(collector: ProjectMetricsCollector): void;
  /** The client sites a user worked from, the one named first (GET /api/info). */
  userSites(userName: string, currentSiteId: string | null): Promise<UserSite[]>;
}

/** The system service of the system addon. */
export const systemRef = createServiceRef<SystemService>({ addon: 'system', id: 'system' });
