import { jestConfig } from '../../jest.preset.js';
import process from 'node:process';

const config = jestConfig('webhooks');
// *.pg.test.ts start several server processes on one database, which only a PostgreSQL server can share (the
// embedded PGlite belongs to a single process); they run in the PostgreSQL pass, where DATABASE_URL is set.
if (!process.env.DATABASE_URL) config.testPathIgnorePatterns = ['/node_modules/', '\\.pg\\.test\\.ts$'];

export default config;
