import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SidecarCommand } from './sidecar.js';

// How the sidecar is started. Addon code is arbitrary Python: it runs with an environment scrubbed of the server's
// secrets (database and Redis URLs, keys, mail), and inside bubblewrap where that works: the file system read-only,
// the data folder hidden but for the installed addons (no database files, no secrets key), a private /tmp, no
// network, its own process tree, gone with the server.

/** Where the compatibility package, the host and the shims live. */
export const PYTHON_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../python');

export interface HostCommand extends SidecarCommand {
  /** Said once in the log: which isolation is in force. */
  isolation: string;
}

/** Whether bubblewrap can start a process here (it cannot in some containers, for want of user namespaces). */
function bubblewrapWorks(args: string[]): boolean {
  if (!existsSync('/usr/bin/bwrap')) return false;
  const probe = spawnSync('/usr/bin/bwrap', [...args, '--', '/bin/true'], { timeout: 5000 });
  return probe.status === 0;
}

function sandboxArgs(dataDir: string): string[] {
  const addons = join(dataDir, 'addons');
  mkdirSync(addons, { recursive: true });
  // prettier-ignore
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    '--tmpfs', dataDir,
    '--ro-bind', addons, addons,
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--die-with-parent',
    '--new-session',
    '--chdir', '/tmp',
  ];
}

export function hostCommand(python: string, dataDir: string): HostCommand {
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: '/tmp',
    PYTHONPATH: [PYTHON_ROOT, join(PYTHON_ROOT, 'shims')].join(':'),
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
  };
  const host = [python, '-m', 'pipewright_ayon_host'];
  const sandbox = sandboxArgs(resolve(dataDir));
  if (bubblewrapWorks(sandbox)) {
    return {
      command: '/usr/bin/bwrap',
      args: [...sandbox, '--', ...host],
      env,
      isolation:
        'bubblewrap (read-only file system, data folder hidden but for the addons, no network, scrubbed environment)',
    };
  }
  return {
    command: python,
    args: host.slice(1),
    env,
    isolation: 'a scrubbed environment only (bubblewrap is not available here)',
  };
}
