import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import type { SessionState } from './state.js';

/** The review_sessions table of each project's schema. */
export class SessionStore {
  constructor(
    private readonly db: Database,
    private readonly schemaName: (project: string) => string,
  ) {}

  private table(project: string) {
    return sql.table(`${this.schemaName(project)}.review_sessions`);
  }

  async get(project: string, listId: string): Promise<{ state: SessionState; revision: number } | null> {
    const { rows } = await sql<{ state: SessionState; revision: number }>`
      SELECT state, revision FROM ${this.table(project)} WHERE list_id = ${listId}`.execute(this.db);
    return rows[0] ?? null;
  }

  /** The row locked for a change, inside the caller's unit of work (two changes at once take turns). */
  async lock(project: string, listId: string): Promise<{ state: SessionState; revision: number } | null> {
    const { rows } = await sql<{ state: SessionState; revision: number }>`
      SELECT state, revision FROM ${this.table(project)} WHERE list_id = ${listId} FOR UPDATE`.execute(
      this.db,
    );
    return rows[0] ?? null;
  }

  /** Write a session's state: the first time, or the next revision of it. */
  async put(project: string, listId: string, state: SessionState, revision: number): Promise<void> {
    await sql`
      INSERT INTO ${this.table(project)} (list_id, state, revision) VALUES (${listId}, ${JSON.stringify(state)}::jsonb, ${revision})
      ON CONFLICT (list_id) DO UPDATE SET state = EXCLUDED.state, revision = EXCLUDED.revision, updated_at = now()`.execute(
      this.db,
    );
  }
}
