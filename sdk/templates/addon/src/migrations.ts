import type { Migration } from '@pipewright/sdk';

// Tables of every addon share one database: prefix yours with the addon's name.
export const VISITS = '__SNAKE___visits';

/** Forward-only: a change to a table is a new migration at the end, never an edit of one that ran. */
export const studioMigrations: Migration[] = [
  {
    name: '0001_visits',
    up: (db) =>
      db.schema
        .createTable(VISITS)
        .ifNotExists()
        .addColumn('user_name', 'text', (column) => column.primaryKey())
        .addColumn('visits', 'integer', (column) => column.notNull())
        .execute(),
  },
];
