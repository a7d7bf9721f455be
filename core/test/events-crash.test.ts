import type { ChildProcess } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  queryStoppedServer,
  serverProcessSite,
  stopServerProcess,
  type ServerProcessSite,
} from '@pipewright/core/testing';

// Every addon that emits events, crashed at the worst moment: a write sent with the failpoint header stops dead
// the instant its unit of work commits (failpoints.ts), before its handler or its publishing goes on. Its change
// must be there and so must its event, because a change and its events commit together or not at all; an event
// emitted after the commit (a second door) is never written. Then the process is killed with SIGKILL, and the restart publishes every event the stops
// left in the outbox. Runs `npm start`'s entry point as its own process.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'a strong password';
/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: ChildProcess | undefined;
let site: ServerProcessSite;
let base: string;
let token = '';

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const raw = Buffer.isBuffer(body);
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined || raw ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : raw ? new Uint8Array(body as Buffer) : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

/** A write that must succeed (the set-up of a case). */
async function ok(method: string, path: string, body?: unknown) {
  const res = await call(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** A write sent with the failpoint: it must stop at its commit, so the connection is cut without an answer. */
async function halted(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const answer = await call(method, path, body, { ...headers, 'x-test-failpoint': 'halt-after-commit' }).then(
    (res) => `${res.status} ${res.text}`,
    () => null,
  );
  expect({ write: `${method} ${path}`, answer }).toEqual({ write: `${method} ${path}`, answer: null });
}

async function login(name: string) {
  token = '';
  token = (await ok('POST', '/api/auth/login', { name, password: PASSWORD })).token;
}

interface StoredEvent {
  topic: string;
  summary: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** The events each halted write must have left: its topic, and what its summary or payload says. */
const expected: { write: string; topic: string; about: Record<string, unknown> }[] = [];
const expectEvent = (write: string, topic: string, about: Record<string, unknown>) =>
  expected.push({ write, topic, about });

beforeAll(async () => {
  site = await serverProcessSite('events-crash', { TEST_FAILPOINT_HALT_AFTER_COMMIT: 'true' });
  base = site.base;
  // An installed addon with settings (the settings tests' demo addon), so settings writes can be crashed too. Its
  // files are links: their imports resolve from the repository.
  const demo = join(site.dataDir, 'addons', 'demo', '1.0.0');
  await mkdir(demo, { recursive: true });
  for (const file of ['index.ts', 'package.json'])
    await symlink(join(root, 'plugins/settings/test/installed/demo-1.0.0', file), join(demo, file));
  server = await site.start();
}, 90_000);
afterAll(() => site.remove());

describe('a write stopped dead at its commit, in every addon that emits', () => {
  it('onboarding: the first administrator', async () => {
    await halted('POST', '/api/onboarding/initialize', { adminName: 'admin', adminPassword: PASSWORD });
    await login('admin');
    expectEvent('onboarding', 'server.initialized', {});
  });

  it('auth: a login', async () => {
    await halted('POST', '/api/auth/login', { name: 'admin', password: PASSWORD });
    expectEvent('login', 'auth.login', {});
  });

  it('projects: create, change and the anatomy', async () => {
    await halted('POST', '/api/projects', { name: 'crash', code: 'cr' });
    expect((await call('GET', '/api/projects/crash')).status).toBe(200);
    expectEvent('project create', 'entity.project.created', { name: 'crash' });

    await halted('PATCH', '/api/projects/crash', { data: { crashed: true } });
    expect((await ok('GET', '/api/projects/crash')).data).toMatchObject({ crashed: true });
    expectEvent('project patch', 'entity.project.changed', { name: 'crash', fields: ['data'] });

    const anatomy = await ok('GET', '/api/projects/crash/anatomy');
    await halted('POST', '/api/projects/crash/anatomy', anatomy);
    expectEvent('project anatomy', 'entity.project.changed', { name: 'crash', fields: ['anatomy'] });
  });

  it('users: create, change, avatar, rename and delete', async () => {
    await halted('PUT', '/api/users/artie', { password: PASSWORD });
    expect((await call('GET', '/api/users/artie')).status).toBe(200);
    expectEvent('user create', 'user.created', { userName: 'artie' });

    await halted('PATCH', '/api/users/artie', { attrib: { fullName: 'Artie' } });
    expect((await ok('GET', '/api/users/artie')).attrib.fullName).toBe('Artie');
    expectEvent('user patch', 'user.updated', { userName: 'artie', fields: ['attrib'] });

    await halted('PUT', '/api/users/artie/avatar', PNG, { 'content-type': 'image/png' });
    expectEvent('avatar', 'user.updated', { userName: 'artie', fields: ['avatar'] });

    await halted('PATCH', '/api/users/artie/rename', { newName: 'arthur' });
    expect((await call('GET', '/api/users/arthur')).status).toBe(200);
    expectEvent('user rename', 'user.renamed', { userName: 'arthur', oldName: 'artie' });

    await ok('PUT', '/api/users/gone', { password: PASSWORD });
    await halted('DELETE', '/api/users/gone');
    expect((await call('GET', '/api/users/gone')).status).toBe(404);
    expectEvent('user delete', 'user.deleted', { userName: 'gone' });
  });

  it('access: a group and who holds it', async () => {
    await halted('PUT', '/api/accessGroups/crew/_', {});
    expectEvent('access group', 'access_group.updated', { name: 'crew' });

    // A group made before: the stopped write's group is not in this process's memory (a crash would empty it).
    await ok('PUT', '/api/accessGroups/cast/_', {});
    await halted('PATCH', '/api/users/arthur/accessGroups', {
      accessGroups: [{ project: 'crash', accessGroups: ['cast'] }],
    });
    expect((await ok('GET', '/api/users/arthur')).data.accessGroups).toMatchObject({ crash: ['cast'] });
    expectEvent('user access', 'user.updated', { userName: 'arthur', fields: ['accessGroups'] });
  });

  it('anatomy presets and attributes', async () => {
    const preset = await ok('GET', '/api/anatomy/presets/_');
    await halted('PUT', '/api/anatomy/presets/house', preset);
    expect((await call('GET', '/api/anatomy/presets/house')).status).toBe(200);
    expectEvent('anatomy preset', 'anatomy.preset.changed', {});

    await halted('PUT', '/api/attributes/crashNote', {
      position: 99,
      scope: ['folder'],
      data: { type: 'string', title: 'Crash note' },
    });
    expect((await call('GET', '/api/attributes/crashNote')).status).toBe(200);
    expectEvent('attribute', 'attribute.updated', {});
  });

  it('secrets, teams, bundles, settings and the server configuration', async () => {
    await halted('PUT', '/api/secrets/farm', { value: 'hunter2' });
    expect((await call('GET', '/api/secrets/farm')).status).toBe(200);
    expectEvent('secret', 'secret.updated', {});

    await halted('PUT', '/api/projects/crash/teams/leads', { name: 'leads', members: [] });
    expect((await call('GET', '/api/projects/crash/teams')).text).toContain('leads');
    expectEvent('team', 'team.changed', { teamName: 'leads' });

    await halted('POST', '/api/bundles', { name: 'crashed', addons: {} });
    expect((await call('GET', '/api/bundles')).text).toContain('crashed');
    expectEvent('bundle', 'bundle.created', { name: 'crashed' });

    await halted('POST', '/api/addons/demo/1.0.0/settings', { fps: 30 });
    expectEvent('settings', 'settings.changed', { addonName: 'demo' });

    await halted('PATCH', '/api/config', { studioName: 'Crashed' });
    expectEvent('server config', 'server.config_changed', {});
  });

  it('entities, links, lists and activities', async () => {
    await halted('POST', '/api/projects/crash/folders', { name: 'sh010', folderType: 'Shot' });
    const folders = await ok('GET', '/api/projects/crash/folders?names=sh010');
    expect(folders).toBeTruthy();
    expectEvent('folder', 'entity.folder.created', {});

    const a = (await ok('POST', '/api/projects/crash/folders', { name: 'sh020', folderType: 'Shot' })).id;
    const b = (await ok('POST', '/api/projects/crash/folders', { name: 'sh030', folderType: 'Shot' })).id;
    await ok('PUT', '/api/projects/crash/links/types/follows|folder|folder', {});
    await halted('POST', '/api/projects/crash/links', {
      input: a,
      output: b,
      linkType: 'follows|folder|folder',
    });
    expectEvent('link', 'link.created', {});

    await halted('POST', '/api/projects/crash/lists', { label: 'dailies', entityType: 'folder' });
    expectEvent('list', 'entity_list.created', {});

    await halted('POST', `/api/projects/crash/folder/${a}/activities`, {
      activityType: 'comment',
      body: 'Crashed while commenting',
    });
    expectEvent('comment', 'activity.created', {});

    // A guest link revoked: its event is what tells every process to close the guests' connections.
    const dailies = (
      await ok('POST', '/api/projects/crash/lists', { label: 'review', entityType: 'version' })
    ).id;
    const link = (await ok('POST', '/api/projects/crash/guest-links', { listId: dailies })).id;
    await halted('DELETE', `/api/projects/crash/guest-links/${link}`);
    expectEvent('guest link revoked', 'guest-link.revoked', { linkId: link });

    // Last: the server's copy of the project is stale after a stop (in a real crash it is gone with the process).
    await halted('PUT', '/api/projects/crash/links/types/blocks|folder|folder', {});
    expectEvent('link type', 'entity.project.changed', { name: 'crash', fields: ['linkTypes'] });
  });
});

describe('a write whose event is the whole change', () => {
  it('events: a dispatched event commits with what the webhooks addon owes for it, in one unit', async () => {
    await halted('POST', '/api/events', { topic: 'crash.note', description: 'a note', summary: { note: 1 } });
    expectEvent('dispatch', 'crash.note', { note: 1 });
  });
});

describe('a server killed after all of them', () => {
  it('kept each write its events, and publishes every one at the restart', async () => {
    const exited = new Promise((done) => server!.once('exit', done));
    server!.kill('SIGKILL');
    await exited;
    server = await site.start();
    await stopServerProcess(server);
    const events = await queryStoppedServer<StoredEvent>(
      site,
      'SELECT topic, summary, payload FROM public.events ORDER BY creation_order',
    );
    const [{ n: unpublished }] = await queryStoppedServer<{ n: number }>(
      site,
      'SELECT count(*)::int AS n FROM public.event_outbox',
    );
    const missing = expected.filter(
      ({ topic, about }) =>
        !events.some(
          (event) =>
            event.topic === topic &&
            Object.entries(about).every(
              ([key, value]) =>
                JSON.stringify(event.summary[key] ?? event.payload[key]) === JSON.stringify(value),
            ),
        ),
    );
    expect(missing).toEqual([]);
    expect(unpublished).toBe(0);
  }, 90_000);
});
