import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { buildFrontend, buildServer, checkScreens } from './build.js';
import { CliError, readAddonFolder, type AddonFolder } from './addon-folder.js';
import { packageAddon } from './packaging.js';
import { callServer, type ServerOptions } from './server.js';
import { uploadAddon } from './upload.js';

// `pipewright addon dev`: a local server (the @pipewright/core the addon's tests use) on an embedded database in
// .pipewright-dev/, with the addon installed the way a studio installs it, and installed again each time a file
// changes. Reinstalling the same version runs the new code at once, so the server itself never restarts.

/** The first administrator of a dev server, printed so the developer can log into the web app. */
export const DEV_ADMIN = { name: 'admin', password: 'pipewright-dev' };
/**
 * What an author edits, relative to the addon folder. Only these are watched: build output and the dev server's
 * data folder change under the watcher (folders vanish while it walks them), and a change there is no edit.
 */
const WATCHED = {
  folders: ['src', 'frontend/src', 'public', 'private'],
  files: ['manifest.json', 'package.json', 'frontend/rsbuild.config.ts'],
};

export interface DevOptions {
  port: number;
  /** Where progress lines go (the terminal). */
  log: (line: string) => void;
}

/** Start the server process of @pipewright/core as installed beside the addon. */
function startServer(addon: AddonFolder, port: number): ChildProcess {
  let main: string;
  try {
    main = createRequire(join(addon.root, 'package.json')).resolve('@pipewright/core/main');
  } catch {
    throw new CliError(
      'addon dev runs the server from @pipewright/core: add it to devDependencies and npm install',
    );
  }
  return spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(addon.root, '.pipewright-dev', 'data'),
      // The dev server keeps to its own embedded database, whatever server the shell's environment points at.
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** Wait until the server answers /api/info, or fail if its process ends first. */
async function serverReady(url: string, child: ChildProcess): Promise<{ noAdminUser: boolean }> {
  for (let waited = 0; waited < 60_000; waited += 200) {
    if (child.exitCode !== null) throw new CliError(`The dev server stopped (exit code ${child.exitCode})`);
    try {
      const response = await fetch(`${url}/api/info`);
      if (response.ok) return (await response.json()) as { noAdminUser: boolean };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new CliError('The dev server did not answer within a minute');
}

/** Log in as the dev administrator, creating it on a fresh data folder. */
async function devCredentials(url: string, fresh: boolean): Promise<ServerOptions> {
  const json = { 'content-type': 'application/json' };
  const anonymous = { url, headers: {} };
  if (fresh) {
    await callServer(anonymous, '/api/onboarding/initialize', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ adminName: DEV_ADMIN.name, adminPassword: DEV_ADMIN.password }),
    });
  }
  const { token } = await callServer<{ token: string }>(anonymous, '/api/auth/login', {
    method: 'POST',
    headers: json,
    body: JSON.stringify(DEV_ADMIN),
  });
  return { url, headers: { authorization: `Bearer ${token}` } };
}

/** Which parts a change of this file (relative to the addon folder) needs rebuilt. */
function partsFor(path: string): { server: boolean; frontend: boolean } {
  const frontend = path.startsWith(`frontend${sep}`);
  return { server: !frontend, frontend: frontend || path === 'manifest.json' };
}

/** Watch what an author edits; `changed` hears each changed path, relative to the addon folder. */
function watchSources(
  root: string,
  changed: (path: string) => void,
  log: (line: string) => void,
): FSWatcher[] {
  const watchers: FSWatcher[] = [];
  const add = (path: string, recursive: boolean) => {
    if (!existsSync(join(root, path))) return;
    const watcher = watch(join(root, path), { recursive }, (_event, file) =>
      changed(recursive && file ? join(path, file) : path),
    );
    // A watcher that fails (a folder removed while it was read) is reported; the others keep working.
    watcher.on('error', (error) => log(`Stopped watching ${path}: ${error.message}`));
    watchers.push(watcher);
  };
  for (const folder of WATCHED.folders) add(folder, true);
  for (const file of WATCHED.files) add(file, false);
  return watchers;
}

/** Run the dev server until SIGINT/SIGTERM; answers when it has stopped. */
export async function devAddon(dir: string, options: DevOptions): Promise<void> {
  const { log } = options;
  let addon = await readAddonFolder(dir);
  await mkdir(join(addon.root, '.pipewright-dev'), { recursive: true });
  const url = `http://127.0.0.1:${options.port}`;
  const server = startServer(addon, options.port);
  const stopped = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  try {
    const info = await serverReady(url, server);
    const credentials = await devCredentials(url, info.noAdminUser);
    if (info.noAdminUser)
      log(`Created the administrator "${DEV_ADMIN.name}" with the password "${DEV_ADMIN.password}"`);

    const install = async (parts: { server: boolean; frontend: boolean }) => {
      const started = Date.now();
      addon = await readAddonFolder(dir);
      if (parts.server) await buildServer(addon);
      if (parts.frontend) await buildFrontend(addon);
      await checkScreens(addon);
      await packageAddon(addon);
      await uploadAddon(addon, credentials);
      const { name, version } = addon.manifest;
      log(
        `Installed ${name} ${version} in ${Date.now() - started} ms: ${url}/api/addons/${name}/${version}/`,
      );
    };
    await install({ server: true, frontend: true });
    log(`Ready: the web app is at ${url}/ ; watching ${addon.root} for changes`);

    // Changes are batched (an editor saves several files at once) and installs never overlap.
    let pending: { server: boolean; frontend: boolean } | null = null;
    let timer: NodeJS.Timeout | undefined;
    let running = Promise.resolve();
    const watchers = watchSources(
      addon.root,
      (file) => {
        const parts = partsFor(file);
        pending = {
          server: (pending?.server ?? false) || parts.server,
          frontend: (pending?.frontend ?? false) || parts.frontend,
        };
        clearTimeout(timer);
        timer = setTimeout(() => {
          const parts = pending!;
          pending = null;
          running = running.then(() =>
            install(parts).catch((error: Error) =>
              log(`Not installed: ${error.message} (fix it and save again)`),
            ),
          );
        }, 150);
      },
      log,
    );
    const stop = () => server.kill('SIGTERM');
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await stopped;
    for (const watcher of watchers) watcher.close();
    clearTimeout(timer);
  } finally {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await stopped;
    }
  }
}
