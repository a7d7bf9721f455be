import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';

const MAX = 100;
/** The longest span answered: a century, older than any event a project can have. */
export const MAX_DAYS = 36_525;

/**
 * How much happened in a project on each of the last `days` days (UTC), oldest first, today last: the entity
 * events (topics entity.*) of the core's event log, counted per day in SQL, as AYON counts them. Activities (the
 * comment feed) are not counted: they do not exist yet. Counts above 100 are scaled so the busiest day is 100.
 * AYON takes any number of days: 0 or less answers no days here, more than MAX_DAYS the last MAX_DAYS.
 */
export async function dailyActivity(db: Database, projectName: string, asked: number): Promise<number[]> {
  const days = Math.min(asked, MAX_DAYS);
  if (days < 1) return [];
  const { rows } = await sql<{ days_ago: number; n: number }>`
    WITH today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS day)
    SELECT today.day - (e.created_at AT TIME ZONE 'UTC')::date AS days_ago, count(*) AS n
    FROM public.events e, today
    WHERE e.project_name = ${projectName}
      AND e.topic LIKE 'entity.%'
      AND e.created_at >= ((today.day - ${days - 1}::integer)::timestamp AT TIME ZONE 'UTC')
    GROUP BY 1`.execute(db);
  const counts = new Array<number>(days).fill(0);
  for (const row of rows) {
    const index = days - 1 - Number(row.days_ago);
    if (index >= 0 && index < days) counts[index] = Number(row.n);
  }
  const busiest = counts.reduce((a, b) => Math.max(a, b), 0);
  if (busiest <= MAX) return counts;
  return counts.map((n) => Math.trunc((n * MAX) / busiest));
}
