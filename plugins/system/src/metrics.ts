import { createHash } from 'node:crypto';
import { arch, cpus, freemem, loadavg, platform, totalmem } from 'node:os';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { AddonContext, Database } from '@pipewright/sdk';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import type { EventLogReader } from '@pipewright/plugin-events/api';
import type { SiteRegistry } from './sites.js';

/**
 * Adds fields to a project's entry in GET /api/metrics (entity counts, storage used, ...). Collectors come from
 * other addons through the system service; saturated asks for the costly, detailed figures too.
 */
export type ProjectMetricsCollector = (
  projectName: string,
  options: { saturated: boolean },
) => Promise<Record<string, unknown>>;

/** Projects with fewer events than this are left out of the average: test and template projects skew it. */
export const AVERAGE_MIN_EVENTS = 300;
/** At most this many topics are listed in eventTopics, the busiest first. */
const MAX_TOPICS = 200;

/** A stable, non-identifying name for a project in metrics that leave the studio. */
export const nicknameOf = (projectName: string) =>
  createHash('sha256').update(projectName.toLowerCase()).digest('hex').slice(0, 12);

interface Deps {
  db: Database;
  users: UserDirectory;
  events: EventLogReader;
  sites: SiteRegistry;
  log: FastifyBaseLogger;
  server: AddonContext['server'];
  storage: AddonContext['storage'];
  addons: AddonContext['addons'];
  /** The kernel's schema for a project: every project has one, so the schemas list the projects. */
  schemaName: (projectName: string) => string;
}

const flag = (data: Record<string, unknown>, name: string) => data[name] === true;

/**
 * Production metrics of the studio: how many people, projects and events, and how busy projects are. Everything
 * comes from the users service, the event log's read models, the kernel's project schemas, this addon's own tables, and the
 * project collectors other addons add.
 */
export class ProductionMetrics {
  private readonly collectors: ProjectMetricsCollector[] = [];

  constructor(private readonly deps: Deps) {}

  addProjectCollector(collector: ProjectMetricsCollector): void {
    this.collectors.push(collector);
  }

  async collect(options: { system: boolean; saturated: boolean }) {
    const { server, addons } = this.deps;
    const [userCounts, projectNames, events, siteCount] = await Promise.all([
      this.userCounts(),
      this.projectNames(),
      this.deps.events.countsPerProject(),
      this.deps.sites.count(),
    ]);
    const projects = [];
    for (const name of projectNames) {
      const eventCount = events.perProject.get(name) ?? 0;
      // Collected fields first: a collector cannot replace the fields this addon owns.
      projects.push({
        ...(await this.contributed(name, options.saturated)),
        nickname: nicknameOf(name),
        ...(options.saturated ? { name } : {}),
        eventCount,
      });
    }
    const busy = projects.map((project) => project.eventCount).filter((count) => count >= AVERAGE_MIN_EVENTS);
    return {
      version: server.apiVersion,
      uptime: (Date.now() - server.startedAt.getTime()) / 1000,
      ...(options.system ? { system: this.system() } : {}),
      userCounts,
      projectCount: projects.length,
      projects,
      // AYON's /api/metrics leaves out what is none: no average without a busy project.
      ...(busy.length
        ? { averageProjectEventCount: Math.round(busy.reduce((sum, count) => sum + count, 0) / busy.length) }
        : {}),
      eventCount: events.total,
      ...(options.saturated ? { eventTopics: await this.deps.events.topTopics(MAX_TOPICS) } : {}),
      siteCount,
      addons: addons()
        .filter((addon) => addon.enabled)
        .map((addon) => ({ name: addon.name, version: addon.version })),
    };
  }

  private async userCounts() {
    const users = await this.deps.users.list();
    const active = users.filter((user) => user.active);
    const count = (predicate: (data: Record<string, unknown>) => boolean) =>
      active.filter((user) => predicate(user.data)).length;
    return {
      total: users.length,
      active: active.length,
      inactive: users.length - active.length,
      admins: count((data) => flag(data, 'isAdmin')),
      managers: count((data) => flag(data, 'isManager') && !flag(data, 'isAdmin')),
      services: count((data) => flag(data, 'isService')),
      guests: count((data) => flag(data, 'isGuest')),
      artists: count(
        (data) => !['isAdmin', 'isManager', 'isService', 'isGuest'].some((name) => flag(data, name)),
      ),
    };
  }

  /** Lowercase project names, from the schemas the kernel keeps one of per project. */
  private async projectNames(): Promise<string[]> {
    const prefix = this.deps.schemaName('');
    const pattern = `${prefix.replaceAll('\\', '\\\\').replaceAll('_', '\\_').replaceAll('%', '\\%')}%`;
    const { rows } = await sql<{ name: string }>`
      SELECT nspname AS name FROM pg_catalog.pg_namespace WHERE nspname LIKE ${pattern} ORDER BY nspname
    `.execute(this.deps.db);
    return rows.map((row) => row.name.slice(prefix.length));
  }

  /** What the collectors add for one project; a failing collector costs its own fields, not the answer. */
  private async contributed(projectName: string, saturated: boolean): Promise<Record<string, unknown>> {
    const fields: Record<string, unknown> = {};
    for (const collector of this.collectors) {
      try {
        Object.assign(fields, await collector(projectName, { saturated }));
      } catch (error) {
        this.deps.log.warn({ err: error, project: projectName }, 'a project metrics collector failed');
      }
    }
    return fields;
  }

  private system() {
    const memory = process.memoryUsage();
    return {
      platform: platform(),
      arch: arch(),
      nodeVersion: process.versions.node,
      cpuCount: cpus().length,
      loadAverage: loadavg(),
      memoryTotal: totalmem(),
      memoryFree: freemem(),
      processMemory: memory.rss,
      heapUsed: memory.heapUsed,
      database: this.deps.storage.kind,
      idleConnections: this.deps.storage.idleConnections(),
    };
  }
}
