import type { ProjectMetricsCollector } from './metrics.js';
import type { RestartStatus } from './restart.js';
import type { ServerConfig } from './server-config.js';
import type { UserSite } from './sites.js';

export type { ProjectMetricsCollector, RestartStatus, ServerConfig, UserSite };
