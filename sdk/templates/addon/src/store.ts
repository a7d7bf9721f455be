import type { Database } from '@pipewright/sdk';
import { VISITS } from './migrations.js';

/** The addon's SQL: how many times each user was greeted. */
export class VisitStore {
  constructor(private readonly db: Database) {}

  /** Count one more visit of the user and answer the new count. */
  async visit(userName: string): Promise<number> {
    const row = await this.db
      .insertInto(VISITS)
      .values({ user_name: userName, visits: 1 })
      .onConflict((conflict) =>
        conflict.column('user_name').doUpdateSet((eb) => ({ visits: eb(`${VISITS}.visits`, '+', 1) })),
      )
      .returning('visits')
      .executeTakeFirstOrThrow();
    return row.visits;
  }
}
