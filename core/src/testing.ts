import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { newId } from '@pipewright/sdk';
import { readConfig, type ServerConfig } from './config.js';
import { createServer, type PipewrightServer } from './server.js';
import { openPGlite, openPostgres, type OpenDatabase } from './storage/database.js';
import type { DiscoveredAddon } from './addons/discover.js';

// Tests boot a core with just the addons under test. Storage follows the environment: with DATABASE_URL each
// core gets a fresh database on that PostgreSQL server, otherwise an in-memory PGlite cloned from a template
// (creating a PGlite database from scratch costs about 2 s, cloning a dump about 0.4 s).

const TEMPLATE = join(tmpdir(), 'pipewright-pglite-template-0.5.tar');

async function pgliteTemplate(): Promise<Blob> {
  if (!existsSync(TEMPLATE)) {
    const fresh = await PGlite.create();
    const dump = await fresh.dumpDataDir('none');
    await fresh.close();
    const partial = `${TEMPLATE}.${process.pid}.${newId()}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, TEMPLATE);
  }
  return new Blob([await readFile(TEMPLATE)]);
}

/** A throwaway database on the PostgreSQL server at serverUrl: its URL, and how to drop it. */
export async function createTestDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `pwtest_${newId()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

async function freshPostgresDatabase(serverUrl: string): Promise<OpenDatabase> {
  const created = await createTestDatabase(serverUrl);
  const database = await openPostgres(created.url, 8);
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}

export interface TestResponse {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  text: string;
}

export interface RequestOptions {
  token?: string;
  apiKey?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A core booted for a test, with a small HTTP helper. */
export interface TestCore extends PipewrightServer {
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
}

/** Boot a core with only the named addons (and their dependencies) on fresh storage. */
export async function bootTestCore(options: {
  addons: string[];
  extraAddons?: DiscoveredAddon[];
  config?: Partial<ServerConfig>;
}): Promise<TestCore> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-test-'));
  const env = readConfig({ ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' });
  const config: ServerConfig = {
    ...env,
    dataDir,
    // Each test core gets its own channel so parallel test files sharing one Redis do not hear each other.
    redisChannel: `pipewright.test.${newId()}`,
    ...options.config,
  };
  const database = config.databaseUrl
    ? await freshPostgresDatabase(config.databaseUrl)
    : await openPGlite({ loadDataDir: await pgliteTemplate() });
  const server = await createServer({ config, database, only: options.addons, extraAddons: options.extraAddons });
  return {
    ...server,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
    async request(method, url, { token, apiKey, body, headers = {} } = {}) {
      const allHeaders: Record<string, string> = { ...headers };
      if (token) allHeaders.authorization = `Bearer ${token}`;
      if (apiKey) allHeaders['x-api-key'] = apiKey;
      const isRaw = typeof body === 'string' || Buffer.isBuffer(body);
      if (body !== undefined && !isRaw) allHeaders['content-type'] ??= 'application/json';
      const response = await server.app.inject({
        method: method as any,
        url,
        headers: allHeaders,
        payload: body === undefined ? undefined : isRaw ? (body as string | Buffer) : JSON.stringify(body),
      });
      let parsed: unknown = undefined;
      if (response.body && String(response.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(response.body);
      return { status: response.statusCode, headers: response.headers, body: parsed, text: response.body };
    },
  };
}
