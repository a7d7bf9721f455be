import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_projects',
    async up(db) {
      // attrib holds the project's own values; defaults come from the attribute library when read.
      await sql`
        CREATE TABLE projects (
          name text PRIMARY KEY,
          code text NOT NULL,
          library boolean NOT NULL DEFAULT false,
          active boolean NOT NULL DEFAULT true,
          attrib jsonb NOT NULL DEFAULT '{}',
          data jsonb NOT NULL DEFAULT '{}',
          config jsonb NOT NULL DEFAULT '{}',
          folder_types jsonb NOT NULL DEFAULT '[]',
          task_types jsonb NOT NULL DEFAULT '[]',
          link_types jsonb NOT NULL DEFAULT '[]',
          statuses jsonb NOT NULL DEFAULT '[]',
          tags jsonb NOT NULL DEFAULT '[]',
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      // The schema name is the lower-cased project name, so names must differ in more than letter case.
      await sql`CREATE UNIQUE INDEX projects_name_lower_idx ON projects (lower(name))`.execute(db);
      await sql`CREATE UNIQUE INDEX projects_code_lower_idx ON projects (lower(code))`.execute(db);
      await sql`
        CREATE TABLE project_site_roots (
          project_name text NOT NULL REFERENCES projects(name) ON UPDATE CASCADE ON DELETE CASCADE,
          site_id text NOT NULL,
          roots jsonb NOT NULL DEFAULT '{}',
          PRIMARY KEY (project_name, site_id)
        )`.execute(db);
    },
  },
];
