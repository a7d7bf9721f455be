import { type AddonApp, type Database, ProjectParams } from '@pipewright/sdk';
import type { AttributeLibrary } from '@pipewright/plugin-attributes/api';
import type { EventLogReader } from '@pipewright/plugin-events/api';
import type { ProjectFiles } from '@pipewright/plugin-files/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { TeamDirectory } from '@pipewright/plugin-teams/api';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import { dailyActivity } from './activity.js';
import { countEntities } from './entity-counts.js';
import { countPeople } from './project-people.js';
import { Activity, ActivityQuery, EntityCounts, Health, ProjectPeople } from './schemas.js';
import { taskHealth } from './task-health.js';

export interface DashboardDeps {
  db: Database;
  log: EventLogReader;
  projects: ProjectDirectory;
  users: UserDirectory;
  attributes: AttributeLibrary;
  teams: TeamDirectory;
  files: ProjectFiles;
  schemaName: (projectName: string) => string;
}

const BASE = '/api/projects/:project_name/dashboard';

/** The project dashboard: read-only summaries for anyone who may use the project (404 unknown, 403 no access). */
export function dashboardRoutes({
  db,
  log,
  projects,
  users,
  attributes,
  teams,
  files,
  schemaName,
}: DashboardDeps) {
  return async (app: AddonApp) => {
    app.get(
      `${BASE}/entities`,
      {
        schema: {
          summary: 'Retrieve entity counts for a given project.',
          description: 'Every entity of each type is counted, active or not.',
          params: ProjectParams,
          response: { 200: EntityCounts },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        return countEntities(db, schemaName(project.name));
      },
    );

    app.get(
      `${BASE}/health`,
      {
        schema: {
          summary: 'Task completion, overdue tasks and tasks per status',
          description:
            "A task is completed when its status's state is done, and overdue when it is not and its effective " +
            "endDate has passed. Storage used is what the project's files take (uploads, attachments, reviewables); no quota is set (0).",
          params: ProjectParams,
          response: { 200: Health },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        const inheritable = await attributes.inheritable('task');
        const health = await taskHealth(db, {
          schema: schemaName(project.name),
          doneStatuses: project.statuses
            .filter((status) => status.state === 'done')
            .map((status) => status.name),
          endDateInherits: inheritable.includes('endDate'),
          projectEndDate: project.attrib.endDate,
          now: new Date(),
        });
        return { ...health, storageUsage: { quota: 0, used: await files.usage(project.name) } };
      },
    );

    app.get(
      `${BASE}/activity`,
      {
        schema: {
          summary: 'Changes to the project per day',
          description:
            'Entity events (entity.*) per UTC day over the last `days` days, oldest first, scaled so the busiest ' +
            'day is at most 100.',
          params: ProjectParams,
          querystring: ActivityQuery,
          response: { 200: Activity },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        return { activity: await dailyActivity(log, project.name, request.query.days) };
      },
    );

    app.get(
      `${BASE}/users`,
      {
        schema: {
          summary: 'Team sizes, users with access and users per access group',
          params: ProjectParams,
          response: { 200: ProjectPeople },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        const [all, members] = await Promise.all([users.list(), teams.members(project.name)]);
        return countPeople(all, project.name, new Set(members.map((name) => name.toLowerCase())));
      },
    );
  };
}
