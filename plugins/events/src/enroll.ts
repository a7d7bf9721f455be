import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import {
  eventRowMessage,
  newOrderedId,
  type Database,
  type EventMessage,
  type EventRow,
} from '@pipewright/sdk';

/**
 * Enroll: a worker asks for the next job of targetTopic derived from finished events of sourceTopic.
 *
 * Everything happens in one transaction. Candidate source rows are locked with FOR UPDATE SKIP LOCKED, so two
 * workers racing for jobs take different sources instead of queueing behind each other; the unique hash of the
 * target (sha256 of "targetTopic:sourceId") and conditional updates of existing targets settle whatever the
 * locks cannot see (a target committed by another worker after this statement's snapshot was taken).
 * Sequential enrolls also take a transaction-scoped advisory lock on the target topic: they must look at the
 * oldest source even when another worker holds it, so they wait for each other rather than skip.
 */

/** Below this many free pooled connections enroll answers 503, so a crowd of pollers cannot starve requests. */
export const MIN_IDLE_CONNECTIONS = 3;

/**
 * True when enroll should shed load. PGlite has a single shared connection that is never "free" in the pool sense
 * (requests queue on it instead), so the check only applies to a PostgreSQL server.
 */
export function shouldShed(kind: 'pglite' | 'postgres', idleConnections: number): boolean {
  return kind === 'postgres' && idleConnections < MIN_IDLE_CONNECTIONS;
}

/** The hash of the target event for a source: the same for every worker, so the unique index settles races. */
export function targetHash(targetTopic: string, sourceId: string): string {
  return createHash('sha256').update(`${targetTopic}:${sourceId}`).digest('hex');
}

export interface EnrollOptions {
  sourceTopic: string | string[];
  targetTopic: string;
  sender: string | null;
  senderType: string | null;
  description?: string | null;
  sequential: boolean;
  /** Compiled QueryFilter over the source events (alias s). */
  filter: RawBuilder<boolean>;
  maxRetries: number;
  ignoreSenderTypes?: string[] | null;
  /** Days; 0 means no limit. */
  ignoreOlderThan: number;
}

export interface EnrolledJob {
  id: string;
  dependsOn: string;
  hash: string;
  status: string;
}

/** The job for this worker and, when the database changed, the message subscribers should hear; null for none. */
export interface EnrollResult {
  job: EnrolledJob;
  changed: EventMessage | null;
}

// Statuses of a target that mean its source needs nothing more. Aborted counts as done: someone stopped the job on
// purpose, and eventops restart is the way to run it again.
const FINAL = sql`('finished', 'aborted')`;
const RETRYABLE = sql`('failed', 'restarted')`;
// Rounds per call. Each round locks one candidate: locking more would hide them from concurrent workers (SKIP LOCKED),
// which would then answer "no job" while free jobs wait. The SQL already drops sources this worker could not take,
// so a round comes up empty-handed only when another worker created the job after the round's snapshot.
const ROUNDS = 20;

/** Topic match for the source events: a list of exact topics, or one topic where * stands for anything. */
function topicCondition(sourceTopic: string | string[]): RawBuilder<boolean> {
  const one = (topic: string) => {
    if (!topic.includes('*')) return sql<boolean>`s.topic = ${topic}`;
    // Underscore is a literal character of topics, not LIKE's single-character wildcard.
    const like = topic.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%');
    return sql<boolean>`s.topic LIKE ${like} ESCAPE '\\'`;
  };
  const topics = Array.isArray(sourceTopic) ? sourceTopic : [sourceTopic];
  return sql<boolean>`(${sql.join(topics.map(one), sql` OR `)})`;
}

function candidateQuery(options: EnrollOptions) {
  const { targetTopic, sender, maxRetries } = options;
  const age =
    // As in AYON, a negative number of days is a cutoff in the future: no source is recent enough.
    options.ignoreOlderThan !== 0
      ? sql`s.updated_at >= now() - make_interval(days => ${options.ignoreOlderThan}::int)`
      : sql`TRUE`;
  const ignored = options.ignoreSenderTypes?.length
    ? sql`(s.sender_type IS NULL OR NOT (s.sender_type = ANY(${options.ignoreSenderTypes}::text[])))`
    : sql`TRUE`;
  // Not sequential: sources whose job another worker holds are of no use to this one, so leave them out here.
  const usable = options.sequential
    ? sql`TRUE`
    : sql`(t.id IS NULL OR t.status IN ${RETRYABLE} OR t.sender = ${sender})`;
  return sql<
    EventRow & {
      target_id: string | null;
      target_hash: string | null;
      target_status: string | null;
      target_sender: string | null;
    }
  >`
    SELECT s.id, s.project_name, s.user_name,
           t.id AS target_id, t.hash AS target_hash, t.status AS target_status, t.sender AS target_sender
    FROM public.events AS s
    LEFT JOIN LATERAL (
      SELECT x.id, x.hash, x.status, x.sender FROM public.events AS x
      WHERE x.depends_on = s.id AND x.topic = ${targetTopic}
      ORDER BY x.creation_order DESC LIMIT 1
    ) AS t ON TRUE
    WHERE s.status = 'finished'
      AND s.topic <> ${targetTopic}
      AND ${topicCondition(options.sourceTopic)}
      AND ${age}
      AND ${ignored}
      AND ${options.filter}
      AND NOT EXISTS (
        SELECT 1 FROM public.events AS d
        WHERE d.depends_on = s.id AND d.topic = ${targetTopic}
          AND (d.status IN ${FINAL} OR (d.status = 'failed' AND d.retries >= ${maxRetries}::int))
      )
      AND ${usable}
    ORDER BY s.created_at, s.creation_order
    LIMIT 1
    FOR UPDATE OF s ${options.sequential ? sql`` : sql`SKIP LOCKED`}`;
}

const asJob = (row: EventRow): EnrolledJob => ({
  id: row.id,
  dependsOn: row.depends_on,
  hash: row.hash,
  status: row.status,
});

async function attempt(db: Database, options: EnrollOptions): Promise<EnrollResult | null | 'retry'> {
  const { rows } = await candidateQuery(options).execute(db);
  const source = rows[0];
  if (!source) return null;
  // Lost this candidate to another worker: a sequential worker waits, others look again with a fresh snapshot.
  const missed = options.sequential ? null : 'retry';
  if (source.target_id && (source.target_status === 'failed' || source.target_status === 'restarted')) {
    // Take the job over. The WHERE repeats the checks because another worker may have taken it since our
    // snapshot; PostgreSQL re-reads the row for the update, so then nothing matches and we move on.
    const taken = await sql<EventRow>`
        UPDATE public.events SET
          status = 'pending',
          sender = ${options.sender},
          sender_type = ${options.senderType},
          retries = retries + (CASE WHEN status = 'failed' THEN 1 ELSE 0 END),
          description = coalesce(${options.description ?? null}::text, description),
          updated_at = now()
        WHERE id = ${source.target_id}
          AND status IN ${RETRYABLE}
          AND NOT (status = 'failed' AND retries >= ${options.maxRetries}::int)
        RETURNING *`.execute(db);
    if (taken.rows[0]) return { job: asJob(taken.rows[0]), changed: eventRowMessage(taken.rows[0]) };
    return missed;
  }
  if (source.target_id && source.target_sender !== options.sender) {
    // Someone else is on it (only a sequential worker sees such sources).
    return missed;
  }
  if (source.target_id) {
    // Our own job, still open: the worker probably restarted, so hand it back.
    return {
      job: {
        id: source.target_id,
        dependsOn: source.id,
        hash: source.target_hash!,
        status: source.target_status!,
      },
      changed: null,
    };
  }
  const created = await db
    .insertInto('public.events')
    .values({
      id: newOrderedId(),
      hash: targetHash(options.targetTopic, source.id),
      topic: options.targetTopic,
      sender: options.sender,
      sender_type: options.senderType,
      project_name: source.project_name,
      user_name: source.user_name,
      depends_on: source.id,
      status: 'pending',
      description: options.description ?? `${options.targetTopic} for event ${source.id}`,
    })
    .onConflict((oc) => oc.column('hash').where('hash', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (created) return { job: asJob(created), changed: eventRowMessage(created) };
  // Another worker created it after our snapshot: that source is theirs.
  return missed;
}

/** Find or create the next job for this worker; null when none is available. Announcing is left to the caller. */
export async function enroll(db: Database, options: EnrollOptions): Promise<EnrollResult | null> {
  // One unit of work: every statement of attempt() runs in it through db.
  return db.transaction().execute(async () => {
    if (options.sequential) {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`pipewright.enroll:${options.targetTopic}`}, 0))`.execute(
        db,
      );
    }
    for (let round = 0; round < ROUNDS; round++) {
      // Each statement of a READ COMMITTED transaction sees what other workers committed meanwhile.
      const result = await attempt(db, options);
      if (result !== 'retry') return result;
    }
    return null;
  });
}
