import type { EventLogReader } from '@pipewright/plugin-events/api';

const MAX = 100;
/** The longest span answered: a century, older than any event a project can have. */
export const MAX_DAYS = 36_525;

/**
 * How much happened in a project on each of the last `days` days (UTC), oldest first, today last: the entity
 * events (topics entity.*) of the event log, counted per day, as AYON counts them. Activities (the comment feed)
 * are not counted. Counts above 100 are scaled so the busiest day is 100. AYON takes any number of days: 0 or less
 * answers no days here, more than MAX_DAYS the last MAX_DAYS.
 */
export async function dailyActivity(
  log: EventLogReader,
  projectName: string,
  asked: number,
): Promise<number[]> {
  const days = Math.min(asked, MAX_DAYS);
  if (days < 1) return [];
  const counts = await log.dailyCounts(projectName, 'entity.', days);
  const busiest = counts.reduce((a, b) => Math.max(a, b), 0);
  if (busiest <= MAX) return counts;
  return counts.map((n) => Math.trunc((n * MAX) / busiest));
}
