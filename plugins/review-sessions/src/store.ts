import type { Database } from '@pipewright/sdk';
import type { SessionState } from './state.js';

interface SessionRow {
  state: SessionState;
  revision: number;
}

/** The review_sessions table of each project's schema. */
export class SessionStore {
  constructor(
    private readonly db: Database,
    private readonly schemaName: (project: string) => string,
  ) {}

  private sessions(project: string) {
    return this.db
      .withSchema(this.schemaName(project))
      .selectFrom('review_sessions')
      .select(['state', 'revision']);
  }

  async get(project: string, listId: string): Promise<SessionRow | null> {
    return (
      ((await this.sessions(project).where('list_id', '=', listId).executeTakeFirst()) as SessionRow) ?? null
    );
  }

  /** The row locked for a change, inside the caller's unit of work (two changes at once take turns). */
  async lock(project: string, listId: string): Promise<SessionRow | null> {
    const row = await this.sessions(project).where('list_id', '=', listId).forUpdate().executeTakeFirst();
    return (row as SessionRow) ?? null;
  }

  /** Write a session's state: the first time, or the next revision of it. */
  async put(project: string, listId: string, state: SessionState, revision: number): Promise<void> {
    const values = { state: JSON.stringify(state), revision, updated_at: new Date() };
    await this.db
      .withSchema(this.schemaName(project))
      .insertInto('review_sessions')
      .values({ list_id: listId, ...values })
      .onConflict((conflict) => conflict.column('list_id').doUpdateSet(values))
      .execute();
  }
}
