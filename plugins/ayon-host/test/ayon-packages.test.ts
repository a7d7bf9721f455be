import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, installPackage, type TestCore } from '@pipewright/core/testing';
import { PACKAGES, extractedByPython, fixturePackage, packageZip, relabelledZip } from './packages.js';
import { ayonHostRef } from '../src/api.js';
import { usersRef } from '@pipewright/plugin-users/api';

// Six real AYON addons (core, applications, maya, houdini, deadline, blender), built by their own create_package.py,
// installed as an operator installs them and put in the production bundle. Their server code runs in the sidecar:
// settings as their pydantic models make them, overrides on every level, validation by their validators,
// conversions between versions, applications' launch actions; checked over HTTP and with the real AYON client.

const PASSWORD = 'a long test password';
const USERS = {
  root: { isAdmin: true },
  mia: { isManager: true },
  ann: { accessGroups: { show: ['artist'] } },
};
const CLIENT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/compat/ayon-python-api');

let core: TestCore;
let dataDir: string;
let baseUrl: string;
let anatomyFile: string;
const tokens: Record<string, string> = {};

const as = (user: string) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token: tokens[user], body });

const install = (zip: Buffer) => installPackage(core, tokens.root!, zip);

/** The real AYON client, unmodified, run by Debian's python3 against the listening server. */
async function ayonApi(script: string, user = 'root'): Promise<any> {
  const { stdout } = await promisify(execFile)(
    '/usr/bin/python3',
    [
      '-c',
      `import json, ayon_api\ncon = ayon_api.ServerAPI(${JSON.stringify(baseUrl)}, token=${JSON.stringify(tokens[user])})\n${script}`,
    ],
    {
      env: { PATH: process.env.PATH, PYTHONPATH: CLIENT, PYTHONDONTWRITEBYTECODE: '1' },
      maxBuffer: 64 << 20,
    },
  );
  return JSON.parse(stdout);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pipewright-ayon-'));
  core = await bootTestCore({
    addons: [
      'webapp',
      'onboarding',
      'addons',
      'settings',
      'bundles',
      'projects',
      'entities',
      'actions',
      'ayon-host',
      'users',
    ],
    config: { dataDir },
  });
  for (const [name, data] of Object.entries(USERS)) {
    await core.services.get(usersRef).create({ name, password: PASSWORD, data });
    tokens[name] = (
      await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } })
    ).body.token;
  }
  for (const name of Object.keys(PACKAGES) as (keyof typeof PACKAGES)[]) {
    const event = await install(packageZip(name));
    if (event?.status !== 'finished') throw new Error(`${name}: ${event?.description}`);
  }
  const bundle = await as('root')('POST', '/api/bundles', {
    name: 'ayon-pipeline',
    addons: PACKAGES,
    isProduction: true,
  });
  expect(bundle.status).toBe(201);
  expect((await as('mia')('POST', '/api/projects', { name: 'show', code: 'show' })).status).toBe(201);
  // The reference extraction resolves anatomy enums from the same primary anatomy the server uses.
  anatomyFile = join(dataDir, 'primary-anatomy.json');
  await writeFile(anatomyFile, JSON.stringify((await as('root')('GET', '/api/anatomy/presets/_')).body));
  baseUrl = `http://127.0.0.1:${(await core.app.listen({ port: 0, host: '127.0.0.1' })).split(':').pop()}`;
}, 300_000);

afterAll(async () => {
  await core?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('AYON packages listed', () => {
  it('lists each package with its settings, without a broken one', async () => {
    const res = await as('root')('GET', '/api/addons');
    for (const [name, version] of Object.entries(PACKAGES)) {
      const item = res.body.addons.find((addon: any) => addon.name === name);
      expect(item.versions[version]).toMatchObject({ hasSettings: true, isBroken: false });
    }
    const deadline = res.body.addons.find((addon: any) => addon.name === 'deadline');
    expect(deadline.versions[PACKAGES.deadline].hasSiteSettings).toBe(true);
  });

  it('tells the launcher where their client code is and what it needs, with details=true', async () => {
    const res = await as('root')('GET', '/api/addons?details=true');
    const core = res.body.addons.find((addon: any) => addon.name === 'core');
    // ayon-core's client is installed by the launcher: a pipeline addon, its client.zip served from private/.
    expect(core.addonType).toBe('pipeline');
    const version = core.versions[PACKAGES.core];
    expect(version.clientSourceInfo).toEqual([{ type: 'server', filename: 'client.zip' }]);
    expect(version.clientPyproject.project.name).toBe('core');
    const zip = await as('root')('GET', `/addons/core/${PACKAGES.core}/private/client.zip`);
    expect(zip.status).toBe(200);
    // Without details, AYON sends neither.
    const plain = (await as('root')('GET', '/api/addons')).body.addons.find((a: any) => a.name === 'core');
    expect(plain.versions[PACKAGES.core]).not.toHaveProperty('clientSourceInfo');
  });
});

describe('packages of every kind', () => {
  it('runs package.py to read its services, and lists a package whose code fails with the reason', async () => {
    expect((await install(fixturePackage('studio-tools', '1.0.0', false)))?.status).toBe('finished');
    const failed = await install(fixturePackage('studio-tools', '1.0.1', true));
    expect(failed?.status).toBe('failed');
    expect(failed?.description).toMatch(/broken: .*the studio database is not configured/);
    const res = await as('root')('GET', '/api/addons?details=true');
    const tools = res.body.addons.find((addon: any) => addon.name === 'studio-tools');
    expect(tools.versions['1.0.0']).toMatchObject({
      isBroken: false,
      hasSettings: false,
      services: { sync: { image: 'studio/studio-tools-sync:1.0.0' } },
    });
    expect(tools.versions['1.0.1']).toMatchObject({ isBroken: true });
    expect(tools.versions['1.0.1'].reason.error).toMatch(/the studio database is not configured/);
    // The others keep working.
    expect((await as('ann')('GET', `/api/addons/core/${PACKAGES.core}/settings`)).status).toBe(200);
  });
});

describe('settings as the addons make them', () => {
  it.each(Object.keys(PACKAGES) as (keyof typeof PACKAGES)[])(
    '%s: schema and defaults equal what its own models produce',
    async (name) => {
      const version = PACKAGES[name];
      const reference = extractedByPython(name, anatomyFile);
      const schema = await as('ann')('GET', `/api/addons/${name}/${version}/schema`);
      expect(schema.status).toBe(200);
      expect(schema.body.title).toMatch(new RegExp(` ${version.replace(/\./g, '\\.')}$`));
      expect(schema.body).toEqual(reference.schema);
      const settings = await as('ann')('GET', `/api/addons/${name}/${version}/settings`);
      expect(settings.body).toEqual(reference.defaults);
    },
    60_000,
  );

  it('core: known defaults from its DEFAULT_VALUES', async () => {
    const res = await as('ann')('GET', `/api/addons/core/${PACKAGES.core}/settings`);
    expect(res.body.imageio.activate_global_color_management).toBe(false);
    expect(res.body.imageio.file_rules.rules).toEqual([
      { name: 'example', pattern: '.*(beauty).*', colorspace: 'ACES - ACEScg', ext: 'exr' },
    ]);
    expect(res.body.publish.ExtractBurnin.options).toMatchObject({ font_size: 42, bg_padding: 5 });
  });

  it('project schema resolves task types from the project anatomy', async () => {
    const res = await as('ann')('GET', `/api/addons/maya/${PACKAGES.maya}/schema/show`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('"Animation"');
  });
});

describe('overrides on each level', () => {
  const base = `/api/addons/core/${PACKAGES.core}`;

  it('studio: a saved value is read back, listed as an override, and removed again', async () => {
    const current = (await as('mia')('GET', `${base}/settings`)).body;
    current.imageio.activate_global_color_management = true;
    expect((await as('mia')('POST', `${base}/settings`, current)).status).toBe(204);
    expect((await as('ann')('GET', `${base}/settings`)).body.imageio.activate_global_color_management).toBe(
      true,
    );
    const raw = (await as('root')('GET', `${base}/rawOverrides`)).body;
    expect(raw).toEqual({ imageio: { activate_global_color_management: true } });
    const listed = (await as('mia')('GET', `${base}/overrides`)).body;
    expect(listed.root_imageio_activate_global_color_management).toMatchObject({
      path: ['imageio', 'activate_global_color_management'],
      level: 'studio',
    });
    const removed = await as('mia')('POST', `${base}/overrides`, {
      action: 'delete',
      path: ['imageio', 'activate_global_color_management'],
    });
    expect(removed.status).toBe(204);
    expect((await as('ann')('GET', `${base}/settings`)).body.imageio.activate_global_color_management).toBe(
      false,
    );
  });

  it('project: overrides a studio value for that project only', async () => {
    const current = (await as('mia')('GET', `${base}/settings/show`)).body;
    current.publish.ExtractBurnin.options.font_size = 30;
    expect((await as('mia')('POST', `${base}/settings/show`, current)).status).toBe(204);
    expect(
      (await as('ann')('GET', `${base}/settings/show`)).body.publish.ExtractBurnin.options.font_size,
    ).toBe(30);
    expect((await as('ann')('GET', `${base}/settings`)).body.publish.ExtractBurnin.options.font_size).toBe(
      42,
    );
  });

  it('project site: a user overrides for their own machine', async () => {
    const url = `${base}/settings/show?site_id=ann-laptop`;
    const current = (await as('ann')('GET', url)).body;
    current.publish.ExtractBurnin.options.font_size = 24;
    expect((await as('ann')('POST', url, current)).status).toBe(204);
    expect((await as('ann')('GET', url)).body.publish.ExtractBurnin.options.font_size).toBe(24);
    expect(
      (await as('ann')('GET', `${base}/settings/show`)).body.publish.ExtractBurnin.options.font_size,
    ).toBe(30);
  });

  it('site settings: deadline keeps a machine’s credentials through its site model', async () => {
    const url = `/api/addons/deadline/${PACKAGES.deadline}/siteSettings?site_id=ann-laptop`;
    const value = { local_settings: [{ server_name: 'default', username: 'ann', password: 'secret' }] };
    expect((await as('ann')('PUT', url, value)).status).toBe(204);
    expect((await as('ann')('GET', url)).body).toEqual(value);
    const schema = await as('ann')('GET', `/api/addons/deadline/${PACKAGES.deadline}/siteSettings/schema`);
    expect(schema.body.properties.local_settings).toBeDefined();
  });

  it('the addon’s validator refuses a duplicate rule name with 400 and its message', async () => {
    const current = (await as('mia')('GET', `${base}/settings`)).body;
    const rule = { name: 'twice', pattern: '.*', colorspace: 'ACEScg', ext: 'exr' };
    current.imageio.file_rules.rules = [rule, rule];
    const res = await as('mia')('POST', `${base}/settings`, current);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/Duplicate name/);
    expect((await as('root')('GET', `${base}/rawOverrides`)).body.imageio?.file_rules).toBeUndefined();
  });
});

describe('conversions between addon versions', () => {
  it('moving the bundle from an older core converts its overrides with core’s own conversion', async () => {
    // core 1.9.7 relabelled 1.8.5 stands in for the older release: core converts burnin offsets stored by 1.8.6 and
    // older (the padding became part of the offset).
    expect((await install(relabelledZip('core', '1.8.5')))?.status).toBe('finished');
    const raw = { publish: { ExtractBurnin: { options: { x_offset: 10, bg_padding: 4 } } } };
    expect((await as('root')('PUT', '/api/addons/core/1.8.5/rawOverrides?variant=staging', raw)).status).toBe(
      204,
    );
    const preview = await as('mia')(
      'GET',
      `/api/addons/core/${PACKAGES.core}/settings?variant=staging&as=1.8.5`,
    );
    expect(preview.body.publish.ExtractBurnin.options.x_offset).toBe(6);
    expect(
      (await as('root')('POST', '/api/bundles', { name: 'older', addons: { ...PACKAGES, core: '1.8.5' } }))
        .status,
    ).toBe(201);
    const migrated = await as('root')('POST', '/api/migrateSettingsByBundle', {
      sourceBundle: 'older',
      sourceVariant: 'staging',
      targetBundle: 'ayon-pipeline',
      targetVariant: 'staging',
    });
    expect(migrated.status).toBe(200);
    const stored = (await as('root')('GET', `/api/addons/core/${PACKAGES.core}/rawOverrides?variant=staging`))
      .body;
    expect(stored.publish.ExtractBurnin.options.x_offset).toBe(6);
  });
});

describe('applications: launching from the AYON launcher', () => {
  let taskId: string;

  it('lists launch actions for a task and hands the launch to the launcher', async () => {
    const folder = await as('mia')('POST', '/api/projects/show/folders', {
      name: 'sh010',
      folderType: 'Shot',
    });
    const task = await as('mia')('POST', '/api/projects/show/tasks', {
      name: 'animation',
      taskType: 'Animation',
      folderId: folder.body.id,
    });
    taskId = task.body.id;
    const context = {
      projectName: 'show',
      entityType: 'task',
      entityIds: [task.body.id],
      entitySubtypes: ['Animation'],
    };
    const listed = await as('ann')('POST', '/api/actions/list?mode=all', context);
    expect(listed.status).toBe(200);
    const maya = listed.body.actions.find((action: any) =>
      action.identifier.startsWith('application.launch.maya/'),
    );
    expect(maya).toMatchObject({
      addonName: 'applications',
      addonVersion: PACKAGES.applications,
      category: 'Applications',
    });

    // Its icon is one of the addon's own files, served by its icons endpoint.
    expect(maya.icon.url).toBe(`/api/addons/applications/${PACKAGES.applications}/icons/maya.png`);
    const icon = await as('ann')('GET', maya.icon.url);
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');

    const executed = await core.request(
      'POST',
      `/api/actions/execute?addonName=applications&addonVersion=${PACKAGES.applications}&identifier=${encodeURIComponent(maya.identifier)}&variant=production`,
      { token: tokens.ann, body: context },
    );
    expect(executed.status).toBe(200);
    expect(executed.body.type).toBe('launcher');
    const token = /token=([0-9a-f]+)/.exec(executed.body.payload.uri)![1];
    const taken = await as('ann')('GET', `/api/actions/take/${token}`);
    expect(taken.status).toBe(200);
    expect(taken.body.args).toEqual(
      expect.arrayContaining(['launch-by-id', '--app', maya.identifier.slice('application.launch.'.length)]),
    );
    expect(taken.body.args).toEqual(expect.arrayContaining(['--project', 'show', '--task-id', task.body.id]));
  });

  it('keeps a user’s launch option per task, as the addon keys it, and launches with it', async () => {
    const context = {
      projectName: 'show',
      entityType: 'task',
      entityIds: [taskId],
      entitySubtypes: ['Animation'],
    };
    const query = `addonName=applications&addonVersion=${PACKAGES.applications}&identifier=${encodeURIComponent(
      'application.launch.maya/2026',
    )}&variant=production`;
    const saved = await as('ann')('POST', `/api/actions/config?${query}`, {
      ...context,
      value: { skip_last_workfile: true },
    });
    expect(saved.status).toBe(200);
    const read = await as('ann')('POST', `/api/actions/config?${query}`, context);
    expect(read.body).toEqual({ skip_last_workfile: true });
    // Another user has settings of their own.
    expect((await as('mia')('POST', `/api/actions/config?${query}`, context)).body).toEqual({});
    const executed = await as('ann')('POST', `/api/actions/execute?${query}`, context);
    const token = /token=([0-9a-f]+)/.exec(executed.body.payload.uri)![1];
    const taken = await as('ann')('GET', `/api/actions/take/${token}`);
    expect(taken.body.args.join(' ')).toContain('--use-last-workfile 0');
  });

  it('serves its endpoints under its path with the caller', async () => {
    const res = await as('ann')('GET', `/api/addons/applications/${PACKAGES.applications}/apps`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('maya');
  });
});

describe('the real AYON client', () => {
  it('reads studio, project and site settings of the bundle', async () => {
    const all = await ayonApi(
      `print(json.dumps(con.get_addons_settings(bundle_name="ayon-pipeline", project_name="show", site_id="ann-laptop")))`,
    );
    expect(Object.keys(all).sort()).toEqual(Object.keys(PACKAGES).sort());
    expect(all.core.publish.ExtractBurnin.options.font_size).toBe(30);
    const studio = await ayonApi(`print(json.dumps(con.get_addon_settings("core", "${PACKAGES.core}")))`);
    expect(studio.publish.ExtractBurnin.options.font_size).toBe(42);
    const project = await ayonApi(
      `print(json.dumps(con.get_addon_settings("core", "${PACKAGES.core}", project_name="show")))`,
    );
    expect(project.publish.ExtractBurnin.options.font_size).toBe(30);
    // An artist's own machine in the project: the project's settings with the site overrides they saved.
    const onSite = await ayonApi(
      `print(json.dumps(con.get_addon_settings("core", "${PACKAGES.core}", project_name="show", site_id="ann-laptop")))`,
      'ann',
    );
    expect(onSite.publish.ExtractBurnin.options.font_size).toBe(24);
    // Site settings are each user's own: the client reads the administrator's, saved through the site model.
    const site = `/api/addons/deadline/${PACKAGES.deadline}/siteSettings?site_id=root-workstation`;
    const credentials = { local_settings: [{ server_name: 'default', username: 'root', password: 'pw' }] };
    expect((await as('root')('PUT', site, credentials)).status).toBe(204);
    const read = await ayonApi(
      `print(json.dumps(con.get_addon_site_settings("deadline", "${PACKAGES.deadline}", site_id="root-workstation")))`,
    );
    expect(read).toEqual(credentials);
  });
});

describe('a crashed sidecar', () => {
  it('answers the call it dropped with 503, comes back, and the next call works', async () => {
    const host = core.services.get(ayonHostRef);
    const pid = host.pid!;
    const dropped = as('ann')('GET', `/api/addons/maya/${PACKAGES.maya}/schema`);
    while (host.pendingCalls === 0) await new Promise((done) => setImmediate(done));
    process.kill(pid, 'SIGKILL');
    const answer = await dropped;
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ code: 503, detail: expect.stringMatching(/stopped/) });
    // The schema is computed anew each time: answering it takes the sidecar, started again.
    const next = await as('ann')('GET', `/api/addons/maya/${PACKAGES.maya}/schema`);
    expect(next.status).toBe(200);
    expect(next.body.title).toBe(`Maya ${PACKAGES.maya}`);
    expect(host.pid).toEqual(expect.any(Number));
    expect(host.pid).not.toBe(pid);
  }, 60_000);
});
