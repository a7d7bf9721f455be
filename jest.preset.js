// Shared Jest settings of the repository's packages: the sdk's preset (the one addon authors use), named per package.
import process from 'node:process';
import { pipewrightJestConfig } from './sdk/src/jest-preset.js';

/**
 * severalProcesses: the package has *.pg.test.ts, which start several server processes on one database. Only a
 * PostgreSQL server can share one (the embedded PGlite belongs to a single process), so they run in the PostgreSQL
 * pass, where DATABASE_URL is set.
 */
export function jestConfig(displayName, { severalProcesses = false } = {}) {
  const config = { ...pipewrightJestConfig(), displayName };
  if (severalProcesses && !process.env.DATABASE_URL)
    config.testPathIgnorePatterns = ['/node_modules/', '\\.pg\\.test\\.ts$'];
  return config;
}
