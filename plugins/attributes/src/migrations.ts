import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';
import { BUILTIN_ATTRIBUTES } from './builtin.js';

export const studioMigrations: Migration[] = [
  {
    name: '0001_attributes',
    async up(db) {
      await sql`
        CREATE TABLE attributes (
          name text PRIMARY KEY,
          position integer NOT NULL,
          scope text[] NOT NULL,
          builtin boolean NOT NULL,
          data jsonb NOT NULL
        )`.execute(db);
      // Seeded here rather than at every start: a migration runs once, so a studio's later edits to the built-in
      // definitions (titles, limits, positions) survive restarts. ON CONFLICT keeps a re-run harmless anyway.
      await db
        .insertInto('attributes')
        .values(
          BUILTIN_ATTRIBUTES.map((a) => ({
            name: a.name,
            position: a.position,
            scope: sql`ARRAY[${sql.join(a.scope)}]::text[]`,
            builtin: true,
            data: JSON.stringify(a.data),
          })),
        )
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    },
  },
];
