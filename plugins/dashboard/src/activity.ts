import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';

const MAX = 100;

/**
 * How much happened in a project on each of the last `days` days (UTC), oldest first, today last: the entity
 * events (topics entity.*) of the core's event log, counted per day in SQL, as AYON counts them. Activities (the
 * comment feed) are not counted: they do not exist yet. Counts above 100 are scaled so the busiest day is 100.
 */
export async function dailyActivity(db: Database, projectName: string, days: number): Promise<number[]> {
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
  const busiest = Math.max(...counts);
  if (busiest <= MAX) return counts;
  return counts.map((n) => Math.trunc((n * MAX) / busiest));
}
