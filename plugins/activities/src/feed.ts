import { sql, type RawBuilder } from 'kysely';
import {
  ValidationFailed,
  isManagerOrAbove,
  isId,
  PROJECT_ENTITY_TYPES,
  type Database,
  type ProjectEntityType,
  type RequestUser,
} from '@pipewright/sdk';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { Connection } from '@pipewright/plugin-graphql/api';
import type { EntityReader } from './entity-context.js';
import { CHANGE_TYPES } from './notifications.js';
import type { ActivityStore } from './store.js';

/** Relay paging arguments. */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Which activities of a project a feed shows (project.activities and entity.activities arguments). */
export interface FeedFilter {
  entityType?: string | null;
  entityIds?: string[] | null;
  entityNames?: string[] | null;
  activityIds?: string[] | null;
  activityTypes?: string[] | null;
  referenceTypes?: string[] | null;
  tags?: string[] | null;
  categories?: (string | null)[] | null;
  changedAfter?: string | null;
  changedBefore?: string | null;
}

/** Which messages of the caller's inbox to show (AYON's inbox arguments). */
export interface InboxFilter {
  showActiveProjects?: boolean | null;
  showActiveMessages?: boolean | null;
  showUnreadMessages?: boolean | null;
  showImportantMessages?: boolean | null;
}

/** One reference joined with its activity: a node of a feed or an inbox. */
export interface FeedRow {
  project_name: string;
  reference_id: string;
  activity_id: string;
  reference_type: string;
  activity_type: string;
  entity_type: string;
  entity_id: string | null;
  entity_name: string | null;
  active: boolean;
  read: boolean;
  reference_data: Record<string, unknown>;
  body: string;
  tags: string[];
  activity_data: Record<string, any>;
  created_at: Date;
  updated_at: Date;
  creation_order: number;
  sort_at: string;
  sort_order: number;
  sort_ref: number;
}

const CHANGES = sql`(${sql.join([...CHANGE_TYPES])})`;
const DEFAULT_PAGE = 100;
const MAX_PAGE = 5000;

function invalid(msg: string, loc: string): never {
  throw new ValidationFailed([{ loc: ['query', loc], msg, type: 'value_error' }]);
}

/** How many rows, in which direction, from which cursor. */
export function readPage(args: PageArgs, fallback: 'first' | 'last' = 'first') {
  for (const key of ['first', 'last'] as const) {
    const value = args[key];
    if (value != null && (value < 0 || value > MAX_PAGE))
      invalid(`${key} must be between 0 and ${MAX_PAGE}`, key);
  }
  const fromEnd = args.last != null ? args.first == null : fallback === 'last' && args.first == null;
  const limit = (fromEnd ? args.last : args.first) ?? DEFAULT_PAGE;
  return { limit, fromEnd, after: args.after ?? null, before: args.before ?? null };
}
type Page = ReturnType<typeof readPage>;

const encode = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64');
function decode(cursor: string, name: string, shape: ('string' | 'number')[]): any[] {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
    if (Array.isArray(key) && key.length === shape.length && key.every((v, i) => typeof v === shape[i]))
      return key;
  } catch {
    // answered below
  }
  return invalid(`${name} is not a cursor this server gave out`, name);
}

function toConnection<T>(items: { node: T; cursor: string }[], hasMore: boolean, page: Page): Connection<T> {
  return {
    edges: items,
    pageInfo: {
      hasNextPage: page.fromEnd ? page.before !== null : hasMore,
      hasPreviousPage: page.fromEnd ? hasMore : page.after !== null,
      startCursor: items[0]?.cursor ?? null,
      endCursor: items.at(-1)?.cursor ?? null,
    },
  };
}

function timestamp(value: string, name: string): string {
  if (Number.isNaN(Date.parse(value))) invalid(`${name} is not a date and time`, name);
  return value;
}

const COLUMNS = (project: string) => sql`
  ${project}::text AS project_name, r.id AS reference_id, a.id AS activity_id, r.reference_type, a.activity_type,
  r.entity_type, r.entity_id, r.entity_name, r.active, r.read, r.data AS reference_data,
  a.body, a.tags, a.data AS activity_data, a.created_at, a.updated_at, a.creation_order`;

// Timestamps go into cursors as text with microseconds: a JavaScript Date would drop them.
const MICROS = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

/** Feeds of entities and projects, and the inbox of a user: reads of the reference table, newest rules first. */
export class ActivityFeeds {
  constructor(
    private readonly db: Database,
    private readonly store: ActivityStore,
    private readonly reader: EntityReader,
    private readonly projects: ProjectDirectory,
  ) {}

  private where(filter: FeedFilter): RawBuilder<boolean>[] {
    const where: RawBuilder<boolean>[] = [];
    const ids = (list: string[]) => list.filter(isId);
    if (filter.entityIds) where.push(sql<boolean>`r.entity_id = ANY(${ids(filter.entityIds)}::uuid[])`);
    if (filter.entityNames) where.push(sql<boolean>`r.entity_name = ANY(${filter.entityNames}::text[])`);
    if (filter.entityType) where.push(sql<boolean>`r.entity_type = ${filter.entityType}`);
    if (filter.activityIds) where.push(sql<boolean>`a.id = ANY(${ids(filter.activityIds)}::uuid[])`);
    if (filter.activityTypes) {
      // "checklist" asks for comments holding a checklist, unless the comments are asked for anyway (AYON's).
      const types = filter.activityTypes.filter((type) => type !== 'checklist');
      if (types.length < filter.activityTypes.length && !types.includes('comment'))
        where.push(sql<boolean>`(a.activity_type = 'comment' AND a.data->>'hasChecklist' IS NOT NULL)`);
      if (types.length) where.push(sql<boolean>`a.activity_type = ANY(${types}::text[])`);
    }
    if (filter.referenceTypes)
      where.push(sql<boolean>`r.reference_type = ANY(${filter.referenceTypes}::text[])`);
    // Every tag asked for, as AYON matches them.
    if (filter.tags?.length) where.push(sql<boolean>`a.tags @> ${filter.tags}::text[]`);
    if (filter.categories) {
      const named = filter.categories.filter((c): c is string => c !== null);
      where.push(
        sql<boolean>`(a.data->>'category' = ANY(${named}::text[]) ${filter.categories.includes(null) ? sql`OR a.data->>'category' IS NULL` : sql``})`,
      );
    }
    if (filter.changedAfter)
      where.push(sql<boolean>`a.updated_at > ${timestamp(filter.changedAfter, 'changedAfter')}::timestamptz`);
    if (filter.changedBefore)
      where.push(
        sql<boolean>`a.updated_at < ${timestamp(filter.changedBefore, 'changedBefore')}::timestamptz`,
      );
    return where;
  }

  /** Keyset condition and order of a feed: oldest first by creation, then by reference. */
  private feedPaging(page: Page) {
    const where: RawBuilder<boolean>[] = [];
    const key = sql`(a.created_at, a.creation_order, r.creation_order)`;
    if (page.after) {
      const [at, order, ref] = decode(page.after, 'after', ['string', 'number', 'number']);
      where.push(sql<boolean>`${key} > (${at}::timestamptz, ${order}, ${ref})`);
    }
    if (page.before) {
      const [at, order, ref] = decode(page.before, 'before', ['string', 'number', 'number']);
      where.push(sql<boolean>`${key} < (${at}::timestamptz, ${order}, ${ref})`);
    }
    const direction = sql.raw(page.fromEnd ? 'DESC' : 'ASC');
    return {
      where,
      order: sql`a.created_at ${direction}, a.creation_order ${direction}, r.creation_order ${direction}`,
    };
  }

  private feedSelect(projectName: string) {
    const refs = this.store.table(projectName, 'activity_references');
    const activities = this.store.table(projectName, 'activities');
    return sql`
      SELECT ${COLUMNS(projectName)}, ${MICROS('a.created_at')} AS sort_at, a.creation_order AS sort_order, r.creation_order AS sort_ref
      FROM ${refs} r JOIN ${activities} a ON a.id = r.activity_id`;
  }

  /** project.activities: without entities named, each activity once (its origin reference), as AYON does. */
  async projectFeed(caller: RequestUser, projectName: string, filter: FeedFilter, args: PageArgs) {
    const page = readPage(args);
    // Unless entities of a type or activities are named, each activity once: its origin reference (AYON's default).
    const scoped =
      (filter.entityType && filter.entityIds) || filter.activityIds || filter.referenceTypes?.length
        ? filter
        : { ...filter, referenceTypes: ['origin'] };
    const paging = this.feedPaging(page);
    const where = [...this.where(scoped), ...paging.where];
    const rows = (
      await sql<FeedRow>`
        ${this.feedSelect(projectName)}
        ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
        ORDER BY ${paging.order} LIMIT ${page.limit + 1}`.execute(this.db)
    ).rows;
    return this.finish(caller, projectName, rows, page);
  }

  /** entity.activities for many entities of one project at once: the page applies to each entity. */
  async entityFeeds(
    caller: RequestUser,
    projectName: string,
    entityIds: string[],
    filter: FeedFilter,
    args: PageArgs,
  ): Promise<Map<string, Connection<FeedRow>>> {
    const page = readPage(args);
    const paging = this.feedPaging(page);
    const where = [...this.where({ ...filter, entityIds }), ...paging.where];
    const rows = (
      await sql<FeedRow & { n: number }>`
        SELECT * FROM (
          SELECT ${COLUMNS(projectName)}, ${MICROS('a.created_at')} AS sort_at, a.creation_order AS sort_order,
            r.creation_order AS sort_ref, row_number() OVER (PARTITION BY r.entity_id ORDER BY ${paging.order}) AS n
          FROM ${this.store.table(projectName, 'activity_references')} r
          JOIN ${this.store.table(projectName, 'activities')} a ON a.id = r.activity_id
          WHERE ${sql.join(where, sql` AND `)}
        ) ranked WHERE n <= ${page.limit + 1} ORDER BY n`.execute(this.db)
    ).rows;
    const byEntity = new Map<string, FeedRow[]>();
    for (const row of rows) {
      if (!byEntity.has(row.entity_id!)) byEntity.set(row.entity_id!, []);
      byEntity.get(row.entity_id!)!.push(row);
    }
    const answers = new Map<string, Connection<FeedRow>>();
    for (const id of entityIds)
      answers.set(id, await this.finish(caller, projectName, byEntity.get(id) ?? [], page));
    return answers;
  }

  /** A page from rows read one beyond it; rows on entities the caller may not read are left out. */
  private async finish(caller: RequestUser, projectName: string, rows: FeedRow[], page: Page) {
    const hasMore = rows.length > page.limit;
    let kept = rows.slice(0, page.limit);
    if (page.fromEnd) kept.reverse();
    kept = await this.readable(caller, projectName, kept);
    return toConnection(
      kept.map((row) => ({
        node: row,
        cursor: encode([row.sort_at, Number(row.sort_order), Number(row.sort_ref)]),
      })),
      hasMore,
      page,
    );
  }

  /** Rows whose origin the caller may read (managers read everything). */
  private async readable(caller: RequestUser, projectName: string, rows: FeedRow[]): Promise<FeedRow[]> {
    if (isManagerOrAbove(caller) || rows.length === 0) return rows;
    const wanted = new Map<ProjectEntityType, Set<string>>();
    for (const row of rows) {
      const origin = row.activity_data.origin as { type?: ProjectEntityType; id?: string } | undefined;
      if (!origin?.type || !origin.id || !PROJECT_ENTITY_TYPES.includes(origin.type)) continue;
      if (!wanted.has(origin.type)) wanted.set(origin.type, new Set());
      wanted.get(origin.type)!.add(origin.id);
    }
    const visible = new Set<string>();
    for (const [type, ids] of wanted)
      for (const id of (await this.reader.existing(projectName, type, [...ids], caller)).keys())
        visible.add(id);
    return rows.filter((row) => visible.has(row.activity_data.origin?.id));
  }

  // ---------------------------------------------------------------- inbox

  /**
   * The caller's inbox across every project they can see: the activities that address them (mentions, watched
   * entities, relations such as their assigned tasks), newest last, paged backwards with last/before.
   */
  async inbox(caller: RequestUser, filter: InboxFilter, args: PageArgs): Promise<Connection<FeedRow>> {
    const page = readPage(args, 'last');
    if (caller.isGuest) return toConnection([], false, page);
    const names = await this.projects.visibleNames(caller, {
      active: filter.showActiveProjects ?? undefined,
    });
    if (names.length === 0) return toConnection([], false, page);
    const showActive = filter.showActiveMessages === undefined ? true : filter.showActiveMessages;
    const conditions: RawBuilder<boolean>[] = [
      sql<boolean>`r.entity_type = 'user'`,
      sql<boolean>`r.entity_name = ${caller.name}`,
      sql<boolean>`r.reference_type <> 'author'`,
    ];
    if (showActive !== null) conditions.push(sql<boolean>`r.active = ${showActive}`);
    if (filter.showUnreadMessages) conditions.push(sql<boolean>`NOT r.read`);
    if (filter.showImportantMessages === true)
      conditions.push(
        sql<boolean>`(r.reference_type IN ('mention', 'watching') AND a.activity_type NOT IN ${CHANGES})`,
      );
    if (filter.showImportantMessages === false)
      conditions.push(
        sql<boolean>`(r.reference_type NOT IN ('mention', 'watching') OR a.activity_type IN ${CHANGES})`,
      );

    // Newest first across projects: (time, project, order) is the key, compared the same way in every project.
    // The inbox pages backwards only (last/before, as AYON's); first is taken as the page size.
    const limit = args.last ?? args.first ?? page.limit;
    const cursor = page.before ? decode(page.before, 'before', ['string', 'string', 'number']) : null;
    const branches = names.map((projectName) => {
      const where = [...conditions];
      if (cursor)
        where.push(
          sql<boolean>`(r.updated_at, ${projectName}::text, r.creation_order) < (${cursor[0]}::timestamptz, ${cursor[1]}::text, ${cursor[2]})`,
        );
      return sql`(
        SELECT ${COLUMNS(projectName)}, ${MICROS('r.updated_at')} AS sort_at, r.creation_order AS sort_order, 0 AS sort_ref,
          r.updated_at AS sort_time
        FROM ${this.store.table(projectName, 'activity_references')} r
        JOIN ${this.store.table(projectName, 'activities')} a ON a.id = r.activity_id
        WHERE ${sql.join(where, sql` AND `)}
        ORDER BY r.updated_at DESC, r.creation_order DESC
        LIMIT ${limit + 1})`;
    });
    const rows = (
      await sql<FeedRow>`
        SELECT * FROM (${sql.join(branches, sql` UNION ALL `)}) inbox
        ORDER BY sort_time DESC, project_name DESC, sort_order DESC
        LIMIT ${limit + 1}`.execute(this.db)
    ).rows;
    const hasMore = rows.length > limit;
    // Edges run oldest to newest, as relay pages do.
    const items = rows
      .slice(0, limit)
      .reverse()
      .map((row) => ({ node: row, cursor: encode([row.sort_at, row.project_name, Number(row.sort_order)]) }));
    return {
      edges: items,
      pageInfo: {
        hasPreviousPage: hasMore,
        hasNextPage: cursor !== null,
        startCursor: items[0]?.cursor ?? null,
        endCursor: items.at(-1)?.cursor ?? null,
      },
    };
  }

  /**
   * Mark the caller's messages in a project: unread clears the read flag, read sets it, inactive sets it and
   * moves the message out of the active inbox. Answers how many messages changed.
   */
  async markInbox(
    caller: RequestUser,
    projectName: string,
    target: { ids?: string[]; all?: boolean },
    status: 'unread' | 'read' | 'inactive',
  ): Promise<number> {
    const set =
      status === 'unread'
        ? sql`active = true, read = false`
        : status === 'read'
          ? sql`active = true, read = true`
          : sql`active = false, read = true`;
    const which = target.all ? sql`` : sql`AND id = ANY(${target.ids ?? []}::uuid[])`;
    const result = await sql`
      UPDATE ${this.store.table(projectName, 'activity_references')} SET ${set}
      WHERE entity_type = 'user' AND entity_name = ${caller.name} AND reference_type <> 'author' ${which}`.execute(
      this.db,
    );
    return Number(result.numAffectedRows ?? 0);
  }
}
