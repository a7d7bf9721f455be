import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { newId } from '@pipewright/sdk';

// Test support (exported with the rest of @pipewright/core/testing): throwaway databases on a PostgreSQL server,
// a Redis, and server processes of a test's own as `npm start` runs them, alone or deployed together.

/** A client of a PostgreSQL server; the driver loads only when a test uses one (the PGlite pass never does). */
async function postgresClient(connectionString: string) {
  const { default: pg } = await import('pg');
  return new pg.Client({ connectionString });
}

/** A throwaway database on the PostgreSQL server at serverUrl: its URL, and how to drop it. */
export async function createTestDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `pwtest_${newId()}`;
  const admin = await postgresClient(serverUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = await postgresClient(serverUrl);
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** A TCP port nothing listens on right now, for servers started by a test. */
export function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** The Redis a test's server processes share: REDIS_URL when set (CI's second pass), else a private redis-server. */
export async function testRedis(): Promise<{ url: string; stop(): void }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: () => undefined };
  // The free port may be taken by another process before Redis binds it (suites run side by side): try again.
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'pipe' },
    );
    try {
      await new Promise<void>((ready, fail) => {
        let output = '';
        redis.on('error', fail);
        redis.on('exit', (code) => fail(new Error(`redis-server exited with ${code}: ${output}`)));
        // The line may arrive in more than one chunk.
        redis.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Ready to accept')) ready();
        });
      });
      return { url: `redis://127.0.0.1:${port}`, stop: () => void redis.kill() };
    } catch (error) {
      redis.kill();
      if (attempt === 3) throw error;
    }
  }
}

/** A server process of a test's own, and where it lives: see serverProcessSite. */
export interface ServerProcessSite {
  dataDir: string;
  /** http://127.0.0.1:port */
  base: string;
  /** The process's environment. */
  env: NodeJS.ProcessEnv;
  /** Start the server process (again, after a stop or a kill) on this site. */
  start(): Promise<ChildProcess>;
  /** Stop the process if it runs, then remove the data folder, and the database when the run has PostgreSQL. */
  remove(): Promise<void>;
}

/**
 * A fresh data folder and a free port for a server process, and its environment: this process's, with neither its
 * database nor its Redis (the caller gives the process what it should share), then extra.
 */
async function processPlace(name: string, extra: NodeJS.ProcessEnv) {
  const dataDir = await mkdtemp(join(tmpdir(), `pipewright-${name}-`));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return { dataDir, port, env };
}

/**
 * The place of a server process of a test's own: a fresh data folder, a free port, a database of its own when the
 * run uses PostgreSQL (DATABASE_URL), and no Redis. extra adds to or overrides its environment.
 */
export async function serverProcessSite(
  name: string,
  extra: NodeJS.ProcessEnv = {},
): Promise<ServerProcessSite> {
  const { dataDir, port, env } = await processPlace(name, extra);
  const database = process.env.DATABASE_URL ? await createTestDatabase(process.env.DATABASE_URL) : null;
  if (database) env.DATABASE_URL = database.url;
  let running: ChildProcess | undefined;
  return {
    dataDir,
    base: `http://127.0.0.1:${port}`,
    env,
    async start() {
      running = await startServerProcess(env);
      return running;
    },
    async remove() {
      await stopServerProcess(running);
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Server processes deployed as several: see serverProcessGroup. */
export interface ServerProcessGroup {
  /** http://127.0.0.1:port of each process. */
  bases: string[];
  /** Each process's environment. */
  envs: NodeJS.ProcessEnv[];
  /** The running processes (a killed one until it is started again). */
  processes: ChildProcess[];
  /** Start process i again on its site (after a kill). */
  restart(i: number): Promise<void>;
  /** Stop every process, drop the database, stop a private Redis, remove the data folders. */
  close(): Promise<void>;
}

/**
 * Server processes as `npm start` runs them, deployed together: with a PostgreSQL server (databaseServerUrl,
 * DATABASE_URL by default), `count` processes on one fresh database sharing one Redis (testRedis) on a channel of
 * their own; without one, a single process on its embedded PGlite. Each has a data folder and a port of its own;
 * extra adds to their environment. Started one after the other: the first migrates the fresh database.
 */
export async function serverProcessGroup(
  count: number,
  extra: NodeJS.ProcessEnv = {},
  databaseServerUrl: string | null = process.env.DATABASE_URL ?? null,
): Promise<ServerProcessGroup> {
  if (!databaseServerUrl && count > 1) throw new Error('Several server processes need a PostgreSQL server');
  const database = databaseServerUrl ? await createTestDatabase(databaseServerUrl) : null;
  const redis = database ? await testRedis() : null;
  const channel = `pipewright.test.${newId()}`;
  const dataDirs: string[] = [];
  const group: ServerProcessGroup = {
    bases: [],
    envs: [],
    processes: [],
    async restart(i) {
      group.processes[i] = await startServerProcess(group.envs[i]!);
    },
    async close() {
      for (const child of group.processes) await stopServerProcess(child);
      await database?.drop();
      redis?.stop();
      for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
    },
  };
  for (let i = 0; i < count; i++) {
    const { dataDir, port, env } = await processPlace('group', { LOG_LEVEL: 'info', ...extra });
    dataDirs.push(dataDir);
    if (database)
      Object.assign(env, { DATABASE_URL: database.url, REDIS_URL: redis!.url, REDIS_CHANNEL: channel });
    group.bases.push(`http://127.0.0.1:${port}`);
    group.envs.push(env);
    group.processes.push(await startServerProcess(env));
  }
  return group;
}

/** Rows of a query run straight on the database of a stopped server process (its PGlite files, or PostgreSQL). */
export async function queryStoppedServer<T>(site: ServerProcessSite, query: string): Promise<T[]> {
  if (site.env.DATABASE_URL) {
    const client = await postgresClient(site.env.DATABASE_URL);
    await client.connect();
    try {
      return (await client.query(query)).rows;
    } finally {
      await client.end();
    }
  }
  const db = await PGlite.create({ dataDir: join(site.dataDir, 'pglite') });
  try {
    return (await db.query<T>(query)).rows;
  } finally {
    await db.close();
  }
}

/** Create the first administrator of a fresh server process, and answer a session token of theirs. */
export async function onboardAdmin(
  base: string,
  name = 'admin',
  password = 'a strong password',
): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await post('/api/onboarding/initialize', { adminName: name, adminPassword: password });
  const login = await post('/api/auth/login', { name, password });
  return (await login.json()).token;
}

/**
 * A server process as `npm start` runs it (core/src/main.ts), configured by env; resolves once it listens (the
 * env's LOG_LEVEL must let "Pipewright listening" through). Its later output is drained and dropped.
 */
export function startServerProcess(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((done, fail) => {
    let output: string | null = '';
    const onData = (chunk: Buffer) => {
      if (output === null) return;
      output += chunk;
      if (output.includes('Pipewright listening')) {
        output = null;
        done(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => fail(new Error(`server exited with ${code}: ${output}`)));
  });
}

/** Stop a server process with SIGTERM (a graceful shutdown) and wait until it has exited. */
export async function stopServerProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}
