import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { plain } from './addons.js';
import { usersRef } from '@pipewright/plugin-users/api';

// What the settings tests share: a core with the settings and bundles addons, two installed versions of an addon
// with settings, an addon without settings, and logins.

const INSTALLED = join(dirname(fileURLToPath(import.meta.url)), 'installed');

export const PASSWORD = 'correct horse battery';

/** A normal user's data giving access to the test projects (a project's settings are for its users only). */
export const PROJECT_USER = { accessGroups: { alpha: ['artist'], beta: ['artist'] } };

/** A core with settings, bundles, users (for logins), plain (no settings) and demo 1.0.0 and 2.0.0 installed. */
export async function bootSettingsCore() {
  const core = await bootTestCore({
    addons: ['settings', 'bundles', 'users', 'plain'],
    extraAddons: [plain],
  });
  // The core sets up one version of each addon at boot; several versions of one addon are installed ones.
  for (const version of ['1.0.0', '2.0.0']) {
    const info = await core.runtime.load(join(INSTALLED, `demo-${version}`));
    if (info.isBroken) throw new Error(`demo ${version}: ${info.reason}`);
  }
  const login = async (name: string, data: Record<string, unknown>) => {
    const users = core.services.get(usersRef);
    await users.create({ name, password: PASSWORD, data });
    const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
    return res.body.token as string;
  };
  return { core, login };
}

/** Create a bundle through the bundles addon (admins); force lets it name versions the server does not have. */
export async function createBundle(
  core: TestCore,
  token: string,
  body: { name: string; addons: Record<string, string | null>; [flag: string]: unknown },
  force = false,
) {
  const res = await core.request('POST', `/api/bundles${force ? '?force=true' : ''}`, { token, body });
  if (res.status !== 201) throw new Error(`bundle ${body.name}: ${res.status} ${res.text}`);
}

/** Create projects as a manager. */
export async function createProjects(core: TestCore, token: string, ...names: string[]) {
  for (const name of names) {
    const res = await core.request('POST', '/api/projects', { token, body: { name, code: name } });
    if (res.status !== 201) throw new Error(`project ${name}: ${res.status} ${res.text}`);
  }
}
