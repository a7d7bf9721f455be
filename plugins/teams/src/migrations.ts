import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/** Run in every project_<name> schema: teams belong to one project and go when it is dropped. */
export const projectMigrations: Migration[] = [
  {
    name: '0001_teams',
    async up(db) {
      // Members live in one jsonb list: a team is read and written whole, and its members are few.
      await sql`
        CREATE TABLE teams (
          name text PRIMARY KEY,
          data jsonb NOT NULL DEFAULT '{}',
          members jsonb NOT NULL DEFAULT '[]'
        )`.execute(db);
    },
  },
];
