import { sql } from 'kysely';
import type { Migration, Permissions } from '@pipewright/sdk';
import { completePermissions } from './permissions.js';

/** The project_name of groups defined for the whole studio. */
export const STUDIO = '_';

const assignedOnly = { enabled: true, access_list: [{ access_type: 'assigned' as const }] };

/**
 * The groups a new studio starts with. Supervisors lead a project: no folder is closed to them and they may manage
 * who is on it. Artists see and publish anywhere but create and delete only where they have a task. Freelancers
 * only ever see the folders holding their tasks.
 */
export const SEED_GROUPS: Record<string, Permissions> = {
  supervisor: completePermissions({
    project: { enabled: true, anatomy: 1, access: 2, settings: 1 },
  }),
  artist: completePermissions({ create: assignedOnly, delete: assignedOnly }),
  freelancer: completePermissions({
    create: assignedOnly,
    read: assignedOnly,
    update: assignedOnly,
    publish: assignedOnly,
    delete: assignedOnly,
    advanced: { show_sibling_tasks: false },
  }),
};

export const studioMigrations: Migration[] = [
  {
    name: '0001_access_groups',
    async up(db) {
      // Studio groups and their per-project overrides share one table; '_' marks the studio row, so the pair
      // (name, project_name) is the key and a project override never needs a schema of its own.
      await sql`
        CREATE TABLE access_groups (
          name text NOT NULL,
          project_name text NOT NULL,
          data jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (name, project_name)
        )`.execute(db);
      await db
        .insertInto('access_groups')
        .values(
          Object.entries(SEED_GROUPS).map(([name, data]) => ({
            name,
            project_name: STUDIO,
            data: JSON.stringify(data),
          })),
        )
        .execute();
    },
  },
];
