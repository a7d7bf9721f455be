import type { PipewrightClient, ResponseData } from '@pipewright/sdk/client';

// What the dashboard shows, read in one go from the dashboard addon's four routes, with the project's statuses
// (their order and colours) from the project itself.

export type EntityCounts = ResponseData<'get', '/api/projects/{project_name}/dashboard/entities'>;
export type TaskHealth = ResponseData<'get', '/api/projects/{project_name}/dashboard/health'>;
export type ProjectPeople = ResponseData<'get', '/api/projects/{project_name}/dashboard/users'>;

export interface StatusDef {
  name: string;
  color?: string;
  state?: string;
}

export interface DashboardData {
  counts: EntityCounts;
  health: TaskHealth;
  people: ProjectPeople;
  /** Changes per day, oldest first and today last, scaled so the busiest day is 100. */
  activity: number[];
  statuses: StatusDef[];
}

/** How many days the activity chart covers. */
export const ACTIVITY_DAYS = 30;

export async function readDashboard(client: PipewrightClient, project: string): Promise<DashboardData> {
  const path = { project_name: project };
  const [counts, health, people, activity, meta] = await Promise.all([
    client.GET('/api/projects/{project_name}/dashboard/entities', { params: { path } }),
    client.GET('/api/projects/{project_name}/dashboard/health', { params: { path } }),
    client.GET('/api/projects/{project_name}/dashboard/users', { params: { path } }),
    client.GET('/api/projects/{project_name}/dashboard/activity', {
      params: { path, query: { days: ACTIVITY_DAYS } },
    }),
    client.GET('/api/projects/{project_name}', { params: { path } }),
  ]);
  // The schema leaves the anatomy lists open; the dashboard reads the status fields it knows.
  const statuses = ((meta as unknown as { statuses?: StatusDef[] }).statuses ?? []).filter(
    (status) => typeof status?.name === 'string',
  );
  return { counts, health, people, activity: activity.activity, statuses };
}

/** Task counts per status in the project's status order; statuses no longer defined come last, by name. */
export function statusRows(health: TaskHealth, statuses: StatusDef[]): (StatusDef & { count: number })[] {
  const known = new Map(statuses.map((status) => [status.name, status]));
  const rows = statuses
    .filter((status) => (health.statuses[status.name] ?? 0) > 0)
    .map((status) => ({ ...status, count: health.statuses[status.name]! }));
  const others = Object.keys(health.statuses)
    .filter((name) => !known.has(name) && health.statuses[name]! > 0)
    .sort()
    .map((name) => ({ name, count: health.statuses[name]! }));
  return [...rows, ...others];
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} ${UNITS[0]}` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}
