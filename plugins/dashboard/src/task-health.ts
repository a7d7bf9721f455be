import { sql } from 'kysely';
import { endTime, isOverdue, type Database } from '@pipewright/sdk';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the health of a project's tasks depends on besides the tasks themselves. */
export interface HealthContext {
  schema: string;
  /** Names of the project's statuses whose state is done. */
  doneStatuses: string[];
  /** Whether tasks inherit endDate from their folders and the project (the attribute's inherit flag). */
  endDateInherits: boolean;
  /** The project's own effective endDate, the last fallback of an inheriting task. */
  projectEndDate: unknown;
  now: Date;
}

export interface TaskHealth {
  completion: { percentage: number; behind: number; ahead: number };
  storageUsage: { quota: number; used: number };
  tasks: { total: number; completed: number; overdue: number };
  statuses: Record<string, number>;
}

/**
 * Completion, overdue tasks and counts per status. Tasks are grouped in SQL by status and effective end date
 * (the task's own, else its folder's, its ancestors', the project's), so the rows read are as many as distinct
 * pairs, not tasks. Storage usage is not measured yet (no file store reports it): it answers 0 for both.
 */
export async function taskHealth(db: Database, context: HealthContext): Promise<TaskHealth> {
  const tasks = sql.table(`${context.schema}.tasks`);
  const folders = sql.table(`${context.schema}.folders`);
  const projectEnd = typeof context.projectEndDate === 'string' ? context.projectEndDate : null;
  const endDate = context.endDateInherits
    ? sql`coalesce(t.attrib->>'endDate', f.attrib->>'endDate', f.inherited->>'endDate', ${projectEnd}::text)`
    : sql`t.attrib->>'endDate'`;
  const { rows } = await sql<{ status: string; end_date: string | null; n: number }>`
    SELECT t.status, ${endDate} AS end_date, count(*) AS n
    FROM ${tasks} t JOIN ${folders} f ON f.id = t.folder_id
    GROUP BY 1, 2`.execute(db);

  const done = new Set(context.doneStatuses);
  const now = context.now.getTime();
  const statuses: Record<string, number> = {};
  let total = 0;
  let completed = 0;
  let overdue = 0;
  let aheadMs = 0;
  let behindMs = 0;
  for (const row of rows) {
    const n = Number(row.n);
    const end = endTime(row.end_date);
    total += n;
    statuses[row.status] = (statuses[row.status] ?? 0) + n;
    // The shared rule of lateness (sdk deadlines), the one the overview and the home screen mark tasks by.
    const state = done.has(row.status) ? 'done' : undefined;
    if (state === 'done') {
      completed += n;
      if (end !== null && end > now) aheadMs += n * (end - now);
    } else if (isOverdue(row.end_date, state, now)) {
      overdue += n;
      behindMs += n * (now - end!);
    }
  }
  return {
    completion: {
      // Whole percent, rounded down as AYON's integer field does.
      percentage: total ? Math.trunc((completed / total) * 100) : 0,
      behind: Math.floor(behindMs / DAY_MS),
      ahead: Math.floor(aheadMs / DAY_MS),
    },
    storageUsage: { quota: 0, used: 0 },
    tasks: { total, completed, overdue },
    statuses,
  };
}
