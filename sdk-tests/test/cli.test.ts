import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import AdmZip from 'adm-zip';
import { chromium } from 'playwright-core';
import { freePort, onboardAdmin, serverProcessSite, type ServerProcessSite } from '@pipewright/core/testing';

// The CLI as an addon author runs it, from `addon init` to an addon installed on a fresh server process (on the
// PostgreSQL server in that pass), then `addon dev` reinstalling it when a file changes. The addon is scaffolded
// inside the repository (a git-ignored folder) so that its imports resolve the way an npm install would.

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(HERE, '../../sdk/bin/pipewright.js');
const SCRATCH = resolve(HERE, '../scratch');
const ADMIN = { name: 'admin', password: 'a strong password' };
const ROOT = resolve(HERE, '../..');
const HOST_DIST = join(ROOT, 'frontend-host', 'dist', 'index.html');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'];

interface Run {
  code: number | null;
  output: string;
}

/** Run a command to its end; its output is stdout and stderr together, as a terminal shows them. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NODE_OPTIONS: '', ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => done({ code, output }));
  });
}

/** Run the CLI as an author types it. */
const cli = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, [CLI, ...args], cwd, env);

let workDir: string;
let addonDir: string;

beforeAll(async () => {
  await mkdir(SCRATCH, { recursive: true });
  workDir = await mkdtemp(join(SCRATCH, 'cli-'));
  addonDir = join(workDir, 'shot-notes');
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('pipewright addon', () => {
  let site: ServerProcessSite | undefined;
  let base = '';
  let token = '';

  afterAll(() => site?.remove());

  const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  it('init scaffolds an addon whose own test boots the core with just that addon', async () => {
    const init = await cli(['addon', 'init', 'shot-notes'], workDir);
    expect(init.code).toBe(0);
    for (const file of [
      'manifest.json',
      'package.json',
      'src/index.ts',
      'src/routes.ts',
      'src/service.ts',
      'src/store.ts',
      'src/schemas.ts',
      'src/migrations.ts',
      'src/api.ts',
      'frontend/rsbuild.config.ts',
      'frontend/src/Panel.tsx',
      'test/addon.test.ts',
      '.gitignore',
    ])
      expect(existsSync(join(addonDir, file))).toBe(true);
    expect(JSON.parse(await readFile(join(addonDir, 'manifest.json'), 'utf8'))).toMatchObject({
      name: 'shot-notes',
      version: '0.1.0',
      title: 'Shot Notes',
    });
    // A second init into the same folder would overwrite the author's work: refused.
    const again = await cli(['addon', 'init', 'shot-notes'], workDir);
    expect(again.code).toBe(1);
    expect(again.output).toContain('already exists and is not empty');
    expect((await cli(['addon', 'init', 'Bad Name'], workDir)).output).toContain('cannot name an addon');

    // The scaffold's test, run as the author runs it (npm test), on the embedded database.
    const test = await run('npm', ['test'], addonDir, {
      DATABASE_URL: '',
      REDIS_URL: '',
      TEST_LOG_LEVEL: 'silent',
    });
    expect(test.output).toContain('3 passed');
    expect(test.code).toBe(0);
    // And it type-checks as written, screens included.
    const tsc = await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], addonDir);
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  }, 120_000);

  it('build and package make the zip a server installs', async () => {
    const build = await cli(['addon', 'build'], addonDir);
    expect(build.output).toContain('Built shot-notes 0.1.0');
    expect(build.code).toBe(0);
    const pack = await cli(['addon', 'package'], addonDir);
    expect(pack.code).toBe(0);
    const zip = new AdmZip(join(addonDir, 'package', 'shot-notes-0.1.0.zip'));
    const names = zip.getEntries().map((entry) => entry.entryName);
    expect(names).toEqual(
      expect.arrayContaining([
        'manifest.json',
        'package.json',
        'dist/index.js',
        'frontend/dist/mf-manifest.json',
        'public/icon.svg',
      ]),
    );
    // Sources and tests stay with the author.
    expect(names.some((name) => name.startsWith('src/') || name.startsWith('test/'))).toBe(false);
  }, 120_000);

  it('a remote whose name does not match frontendModules fails the build with the reason', async () => {
    const config = join(addonDir, 'frontend', 'rsbuild.config.ts');
    const original = await readFile(config, 'utf8');
    await writeFile(config, original.replace("name: 'shotNotes'", "name: 'otherName'"));
    try {
      const build = await cli(['addon', 'build'], addonDir);
      expect(build.code).toBe(1);
      expect(build.output).toContain(
        'frontendModules names the remote "shotNotes", but frontend/ builds "otherName"',
      );
    } finally {
      await writeFile(config, original);
    }
    expect((await cli(['addon', 'build'], addonDir)).code).toBe(0);
  }, 120_000);

  it('upload installs it on a running server, following the install to the end; its route and settings work', async () => {
    site = await serverProcessSite('cli-server', { LOG_LEVEL: 'info' });
    base = site.base;
    await site.start();
    token = await onboardAdmin(base, ADMIN.name, ADMIN.password);

    // Without credentials the CLI says what it needs instead of trying.
    const anonymous = await cli(['addon', 'upload', '--server', base], addonDir, { PIPEWRIGHT_TOKEN: '' });
    expect(anonymous.code).toBe(1);
    expect(anonymous.output).toContain('give --api-key or --token');

    const upload = await cli(['addon', 'upload'], addonDir, {
      PIPEWRIGHT_URL: base,
      PIPEWRIGHT_TOKEN: token,
    });
    expect(upload.output).toContain('finished');
    expect(upload.output).toContain('Installed shot-notes 0.1.0');
    expect(upload.code).toBe(0);

    const route = '/api/addons/shot-notes/0.1.0';
    expect((await api(`${route}/hello`)).body).toEqual({ message: 'Hello, admin', visits: 1 });
    expect((await api(`${route}/settings`)).body).toEqual({ greeting: 'Hello' });
    expect((await api(`${route}/settings`, { method: 'POST', body: { greeting: 'Hi' } })).status).toBe(204);
    expect((await api(`${route}/hello`)).body).toEqual({ message: 'Hi, admin', visits: 2 });
    // Its settings are checked against the schema it declared.
    const invalid = await api(`${route}/settings`, { method: 'POST', body: { greeting: '' } });
    expect(invalid.status).toBe(422);

    // Its screen is offered to the web app and served.
    const modules = (await api('/api/frontendModules?format=mf-manifest')).body as {
      addonName: string;
      modules: object;
    }[];
    expect(modules.find((module) => module.addonName === 'shot-notes')).toMatchObject({
      addonVersion: '0.1.0',
      modules: { shotNotes: ['./Panel'] },
    });
    const manifest = await fetch(`${base}/addons/shot-notes/0.1.0/frontend/mf-manifest.json`);
    expect(manifest.status).toBe(200);
    expect((await manifest.json()).name).toBe('shotNotes');
  }, 120_000);

  it("its screen opens in the web app the server serves, calling the addon's route as the logged-in user", async () => {
    if (!existsSync(HOST_DIST)) await run('npm', ['run', 'build', '-w', '@pipewright/frontend-host'], ROOT);
    expect((await api('/api/projects', { method: 'POST', body: { name: 'demo', code: 'dm' } })).status).toBe(
      201,
    );
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // Logged in and working in a project, as the web app remembers it between visits.
      await page.goto(`${base}/`);
      await page.evaluate(
        ([session]) => {
          localStorage.setItem('pipewright.token', session!);
          localStorage.setItem('pipewright.project', 'demo');
        },
        [token],
      );
      await page.goto(`${base}/addon/shot-notes/shotNotes`);
      // The greeting comes from the addon's route with the settings saved above: visit 3 of the admin.
      await page.getByRole('heading', { name: 'Hi, admin' }).waitFor({ timeout: 15_000 });
      await page.getByText('admin, this is visit number 3.').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('upload reports a server that cannot be reached', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const upload = await cli(['addon', 'upload', '--server', closed, '--token', 'x'], addonDir);
    expect(upload.code).toBe(1);
    expect(upload.output).toContain(`${closed} could not be reached`);
  });
});

describe('pipewright addon dev', () => {
  it('runs a server with the addon and reinstalls it when a source file changes', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const dev = spawn(process.execPath, [CLI, 'addon', 'dev', '--port', String(port)], {
      cwd: addonDir,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let output = '';
    const seen = (text: string, count = 1) =>
      new Promise<void>((done, fail) => {
        const check = () => {
          if (output.split(text).length - 1 >= count) return done();
          if (dev.exitCode !== null) return fail(new Error(`addon dev stopped:\n${output}`));
          setTimeout(check, 100);
        };
        check();
      });
    dev.stdout.on('data', (chunk) => (output += chunk));
    dev.stderr.on('data', (chunk) => (output += chunk));
    try {
      await seen('Ready');
      expect(output).toContain('Created the administrator "admin" with the password "pipewright-dev"');
      const login = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'admin', password: 'pipewright-dev' }),
      });
      const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
      const hello = async () =>
        (await (await fetch(`${base}/api/addons/shot-notes/0.1.0/hello`, { headers: auth })).json()) as {
          message: string;
        };
      expect((await hello()).message).toBe('Hello, admin');

      const source = join(addonDir, 'src', 'service.ts');
      const code = await readFile(source, 'utf8');
      expect(code).toContain("?? 'Hello'}, ${userName}");
      await writeFile(source, code.replace("?? 'Hello'}, ${userName}", "?? 'Hello'} again, ${userName}"));
      await seen('Installed shot-notes 0.1.0', 2);
      expect((await hello()).message).toBe('Hello again, admin');
      // A change that does not compile is reported and the running version stays.
      await writeFile(source, `${code}\nexport const broken = ;\n`);
      await seen('Not installed');
      expect((await hello()).message).toBe('Hello again, admin');
    } finally {
      dev.kill('SIGTERM');
      await new Promise((done) => (dev.exitCode !== null ? done(null) : dev.once('exit', done)));
    }
    expect(dev.exitCode).toBe(0);
  }, 120_000);
});
