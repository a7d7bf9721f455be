import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

// Metadata lives here; the files themselves under DATA_DIR/desktop/{installers,dependency_packages}/<filename>.
// size and checksum are what the administrator declared (an upload must match them); file_* describe the file the
// server holds, set with uploaded_at when one is accepted, which is what makes the server list itself as a source.
// "server" is never stored in sources.
const common = sql`
  filename text PRIMARY KEY,
  platform text NOT NULL CHECK (platform IN ('windows', 'linux', 'darwin')),
  size bigint CHECK (size >= 0),
  checksum text,
  checksum_algorithm text CHECK (checksum_algorithm IN ('md5', 'sha1', 'sha256')),
  file_size bigint,
  file_checksum text,
  file_checksum_algorithm text CHECK (file_checksum_algorithm IN ('md5', 'sha1', 'sha256')),
  sources jsonb NOT NULL DEFAULT '[]',
  python_version text,
  python_modules jsonb NOT NULL DEFAULT '{}',
  uploaded_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()`;

export const studioMigrations: Migration[] = [
  {
    name: '0001_desktop',
    async up(db) {
      await sql`
        CREATE TABLE desktop_installers (
          ${common},
          version text NOT NULL,
          runtime_python_modules jsonb NOT NULL DEFAULT '{}'
        )`.execute(db);
      await sql`CREATE INDEX desktop_installers_version_idx ON desktop_installers (version, platform)`.execute(
        db,
      );
      await sql`
        CREATE TABLE desktop_dependency_packages (
          ${common},
          installer_version text NOT NULL,
          source_addons jsonb NOT NULL DEFAULT '{}'
        )`.execute(db);
    },
  },
  {
    // AYON takes any declared size, a negative one too: stored as sent (an upload can never match it).
    name: '0002_desktop_any_declared_size',
    async up(db) {
      for (const table of ['desktop_installers', 'desktop_dependency_packages'])
        await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.ref(`${table}_size_check`)}`.execute(
          db,
        );
    },
  },
];
