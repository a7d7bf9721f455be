import { sql, type RawBuilder } from 'kysely';
import { compileEventFilter, isId, type Database, type EventRow } from '@pipewright/sdk';
import type { EventListing, EventLogReader } from './api.js';

/**
 * Words of a text search as AYON cuts them: transliterated to ASCII, lower case, split at anything that is not a
 * letter or digit; words shorter than three letters are ignored.
 */
function searchWords(text: string): string[] {
  const ascii = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  return [...new Set(ascii.split(/[^a-z0-9]+/).filter((word) => word.length >= 3))];
}

/**
 * AYON's text search over topic, project, user and description (every word must appear in one of them). A JSON
 * QueryFilter ({"conditions": [...]}) is read as such, a Pipewright extension AYON text never hits.
 */
function filterConditions(filter: string): RawBuilder<boolean>[] {
  const trimmed = filter.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined) return [compileEventFilter(parsed, 'e', ['filter'])];
  }
  return searchWords(filter).map((word) => {
    const pattern = `%${word}%`;
    return sql<boolean>`(e.topic LIKE ${pattern} OR e.project_name LIKE ${pattern}
      OR e.user_name LIKE ${pattern} OR e.description LIKE ${pattern})`;
  });
}

function listingConditions(listing: EventListing): RawBuilder<boolean>[] {
  const where: RawBuilder<boolean>[] = [];
  if (listing.ids) where.push(sql<boolean>`e.id = ANY(${listing.ids.filter(isId)}::uuid[])`);
  if (listing.topics) {
    const patterns = listing.topics.map((topic) => topic.replace(/\*/g, '%'));
    where.push(sql<boolean>`e.topic LIKE ANY(${patterns}::text[])`);
  } else if (listing.withoutLogs) {
    where.push(sql<boolean>`e.topic NOT LIKE 'log.%'`);
  }
  if (listing.projects) where.push(sql<boolean>`e.project_name = ANY(${listing.projects}::text[])`);
  if (listing.users) where.push(sql<boolean>`e.user_name = ANY(${listing.users}::text[])`);
  if (listing.statuses) where.push(sql<boolean>`e.status = ANY(${listing.statuses}::text[])`);
  if (listing.olderThan) where.push(sql<boolean>`e.created_at < ${listing.olderThan}::timestamptz`);
  if (listing.newerThan) where.push(sql<boolean>`e.created_at > ${listing.newerThan}::timestamptz`);
  // Children are the events that depend on this one (jobs of an enrolled source event, for instance).
  if (listing.hasChildren !== undefined) {
    const children = sql`EXISTS (SELECT 1 FROM public.events c WHERE c.depends_on = e.id)`;
    where.push(listing.hasChildren ? sql<boolean>`${children}` : sql<boolean>`NOT ${children}`);
  }
  if (listing.filter) where.push(...filterConditions(listing.filter));
  if (listing.after !== undefined) where.push(sql<boolean>`e.creation_order > ${listing.after}`);
  if (listing.before !== undefined) where.push(sql<boolean>`e.creation_order < ${listing.before}`);
  return where;
}

/** The event log's read models, in SQL over public.events. */
export function eventLogReader(db: Database): EventLogReader {
  return {
    async list(listing) {
      const where = listingConditions(listing);
      const direction = sql.raw(listing.newestFirst ? 'DESC' : 'ASC');
      const { rows } = await sql<EventRow>`
        SELECT e.* FROM public.events e
        ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
        ORDER BY e.creation_order ${direction}
        LIMIT ${listing.limit}`.execute(db);
      return rows;
    },

    async dailyCounts(projectName, topicPrefix, days) {
      const prefix = `${topicPrefix.replaceAll('\\', '\\\\').replaceAll('_', '\\_').replaceAll('%', '\\%')}%`;
      const { rows } = await sql<{ days_ago: number; n: number }>`
        WITH today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS day)
        SELECT today.day - (e.created_at AT TIME ZONE 'UTC')::date AS days_ago, count(*) AS n
        FROM public.events e, today
        WHERE e.project_name = ${projectName}
          AND e.topic LIKE ${prefix}
          AND e.created_at >= ((today.day - ${days - 1}::integer)::timestamp AT TIME ZONE 'UTC')
        GROUP BY 1`.execute(db);
      const counts = new Array<number>(days).fill(0);
      for (const row of rows) {
        const index = days - 1 - Number(row.days_ago);
        if (index >= 0 && index < days) counts[index] = Number(row.n);
      }
      return counts;
    },

    async countsPerProject() {
      const { rows } = await sql<{ project: string | null; count: number }>`
        SELECT lower(project_name) AS project, count(*) AS count FROM public.events GROUP BY 1`.execute(db);
      const perProject = new Map<string, number>();
      let total = 0;
      for (const row of rows) {
        total += Number(row.count);
        if (row.project !== null) perProject.set(row.project, Number(row.count));
      }
      return { total, perProject };
    },

    async topTopics(limit) {
      const { rows } = await sql<{ topic: string; count: number }>`
        SELECT topic, count(*) AS count FROM public.events GROUP BY topic ORDER BY count(*) DESC, topic
        LIMIT ${limit}`.execute(db);
      return Object.fromEntries(rows.map((row) => [row.topic, Number(row.count)]));
    },
  };
}
