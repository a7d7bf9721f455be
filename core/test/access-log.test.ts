import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { readConfig } from '../src/config.js';
import { freePort } from '../src/testing.js';

// A line per request costs a third of a light route's throughput under load: the default log writes none, and
// ACCESS_LOG=true brings the access log back for operators who want it. Run as `npm start` runs the server.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Start the server, make two requests (one answered 200, one 404), stop it: everything it wrote. */
async function outputOf(extraEnv: NodeJS.ProcessEnv): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-access-log-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise((done) => child.once('exit', done));
  try {
    while (!output.includes('Pipewright listening')) {
      if (child.exitCode !== null) throw new Error(output);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await fetch(`http://127.0.0.1:${port}/api/info?token=s3cret`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/api/no-such-route`)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
  return output;
}

describe('the access log', () => {
  it('is off by default: no line per request at the default level, start-up still logged', async () => {
    const output = await outputOf({});
    expect(output).toContain('Pipewright listening');
    expect(output).not.toContain('/api/info');
    expect(output).not.toContain('incoming request');
    expect(output).not.toContain('request completed');
  }, 60_000);

  it('ACCESS_LOG=true logs each request and its answer, without the token', async () => {
    const output = await outputOf({ ACCESS_LOG: 'true' });
    expect(output).toContain('incoming request');
    expect(output).toContain('request completed');
    expect(output).toContain('/api/info?token=[hidden]');
    expect(output).toContain('/api/no-such-route');
    expect(output).not.toContain('s3cret');
    // Each request's lines carry its own id (the request logger is made only when something is logged).
    const lines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    const incoming = lines.filter((line) => line.msg === 'incoming request').map((line) => line.reqId);
    const completed = lines.filter((line) => line.msg === 'request completed').map((line) => line.reqId);
    expect(incoming).toHaveLength(2);
    expect(new Set(incoming).size).toBe(2);
    expect(completed).toEqual(incoming);
  }, 60_000);

  it('refuses a value that is neither true nor false', () => {
    expect(readConfig({ ACCESS_LOG: 'true' }).accessLog).toBe(true);
    expect(readConfig({ ACCESS_LOG: 'off' }).accessLog).toBe(false);
    expect(readConfig({}).accessLog).toBe(false);
    expect(() => readConfig({ ACCESS_LOG: 'verbose' })).toThrow(/ACCESS_LOG must be true or false/);
  });
});
