import { existsSync, openAsBlob } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { defineAddon, newId, presentUser, type AddonDefinition, type UserRecord } from '@pipewright/sdk';
import { readConfig, type ServerConfig } from './config.js';
import { createTestDatabase } from './test-processes.js';
import { createServer, type PipewrightServer } from './server.js';
import { openPGlite, openPostgres, type OpenDatabase } from './storage/database.js';
import type { DiscoveredAddon } from './addons/discover.js';
import { authRef } from '@pipewright/plugin-auth/api';
import { usersRef } from '@pipewright/plugin-users/api';

// Tests boot a core with just the addons under test. Storage follows the environment: with DATABASE_URL each
// core gets a fresh database on that PostgreSQL server, otherwise an in-memory PGlite cloned from a template
// (creating a PGlite database from scratch costs about 3.5 s, cloning a dump about 1 s, and 0.5 s with the small
// shared buffers a test's few rows need). The dump keeps only the `postgres` database PGlite opens: without
// template0 and template1 it is 25 MB rather than 40, and each clone costs 0.13 s less.

const TEMPLATE = join(tmpdir(), 'pipewright-pglite-template-0.5-postgres-only.tar');

async function pgliteTemplate(): Promise<Blob> {
  if (!existsSync(TEMPLATE)) {
    const fresh = await PGlite.create();
    await fresh.exec(
      `UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`,
    );
    await fresh.exec('DROP DATABASE template0');
    await fresh.exec('DROP DATABASE template1');
    const dump = await fresh.dumpDataDir('none');
    await fresh.close();
    const partial = `${TEMPLATE}.${process.pid}.${newId()}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, TEMPLATE);
  }
  // Read by PGlite straight from the file, rather than copied into memory first.
  return openAsBlob(TEMPLATE);
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
  /** The answer's bytes as sent (a PDF, an image). */
  bytes: Buffer;
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

/**
 * An addon that hands these users to the auth addon, for tests that run without the users addon: every user logs
 * in with the password, except service users, who use the service key.
 */
export function fixedUserSource(
  name: string,
  users: Record<string, Record<string, unknown>>,
  credentials: { password: string; serviceKey?: string },
): AddonDefinition {
  const at = new Date('2026-01-01T00:00:00Z');
  const records: UserRecord[] = Object.entries(users).map(([userName, data]) => ({
    name: userName,
    active: true,
    attrib: {},
    data,
    hasPassword: data.isService !== true,
    createdAt: at,
    updatedAt: at,
  }));
  const find = (userName: string) => records.find((u) => u.name === userName.toLowerCase()) ?? null;
  return defineAddon({
    name,
    version: '1.0.0',
    title: `${name} (test users)`,
    deps: { auth: authRef },
    setup(ctx, deps) {
      deps.auth.setUserSource({
        get: async (userName) => find(userName),
        authenticate: async (userName, password) => {
          const user = find(userName);
          return user?.hasPassword && password === credentials.password ? user : null;
        },
        findByApiKey: async (key) =>
          credentials.serviceKey && key === credentials.serviceKey
            ? (records.find((u) => u.data.isService === true) ?? null)
            : null,
        present: presentUser,
      });
    },
  });
}

/** Boot a core with only the named addons and the extra ones (and their dependencies) on fresh storage. */
export async function bootTestCore(options: {
  addons: string[];
  /** Addons defined by the test itself (plain definitions) or discovered from a fixture folder. */
  extraAddons?: (DiscoveredAddon | AddonDefinition)[];
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
    : await openPGlite({ loadDataDir: await pgliteTemplate(), sharedBuffers: '16MB' });
  const extraAddons = (options.extraAddons ?? []).map((addon) =>
    'definition' in addon ? addon : { definition: addon, directory: dataDir, internal: false },
  );
  // The test's own addons always run, with what they depend on.
  const only = [...options.addons, ...extraAddons.map((addon) => addon.definition.name)];
  const server = await createServer({ config, database, only, extraAddons });
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
      if (response.body && /[/+]json\b/.test(String(response.headers['content-type'] ?? '')))
        parsed = JSON.parse(response.body);
      return {
        status: response.statusCode,
        headers: response.headers,
        body: parsed,
        text: response.body,
        bytes: response.rawPayload,
      };
    },
  };
}

/**
 * Wait until a condition holds, or fail: how a test waits for what follows an answer (events go out once their
 * change is committed; with Redis between, a moment later; another process hears them later still).
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not reached in ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** The event once it has ended (neither pending nor in progress): how a test waits for a background job. */
export async function endedEvent(core: TestCore, eventId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const event = await core.events.get(eventId);
    if (event && event.status !== 'in_progress' && event.status !== 'pending') return event;
    if (Date.now() > until) throw new Error(`event ${eventId} did not end in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Install an addon package (POST /api/addons/install) as the token's user; answers its ended install event. */
export async function installPackage(core: TestCore, token: string, zip: Buffer) {
  const res = await core.request('POST', '/api/addons/install', {
    token,
    body: zip,
    headers: { 'content-type': 'application/zip' },
  });
  if (res.status !== 200) throw new Error(`install answered ${res.status}: ${res.text}`);
  return endedEvent(core, res.body.eventId);
}

/** The password seedUser gives a user unless the test names another. */
export const TEST_PASSWORD = 'correct horse battery';

/**
 * Create a user through the users service (data: isAdmin, accessGroups, ...; attrib: fullName, email, ...) and
 * log it in with the password: answers the session token.
 */
export async function seedUser(
  core: TestCore,
  name: string,
  data: Record<string, unknown> = {},
  { password = TEST_PASSWORD, attrib }: { password?: string; attrib?: Record<string, unknown> } = {},
): Promise<string> {
  await core.services.get(usersRef).create({ name, password, data, attrib });
  const res = await core.request('POST', '/api/auth/login', { body: { name, password } });
  if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.status} ${res.text}`);
  return res.body.token as string;
}

// Server processes of a test's own (as `npm start` runs them) and their databases and Redis.
export * from './test-processes.js';
