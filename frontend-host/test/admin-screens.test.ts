import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { Type, defineAddon } from '@pipewright/sdk';
import { installPackage, type TestCore } from '@pipewright/core/testing';
import { closeAll, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';

// The administration screens (events, users, addons) in the built app, in chromium, against a real server: what an
// administrator does with them, checked through the API behind them.

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const ADMIN = { name: 'admin', password: 'a strong password' };

/** An addon with a settings schema of every kind the settings editor renders. */
const settingsProbe = defineAddon({
  name: 'settings-probe',
  version: '1.0.0',
  title: 'Settings probe',
  settings: {
    studio: Type.Object({
      greeting: Type.String({ default: 'Hello', title: 'Greeting' }),
      retries: Type.Integer({ default: 3, minimum: 0, maximum: 10, description: 'How often a job is tried' }),
      enabled: Type.Boolean({ default: true }),
      quality: Type.Union([Type.Literal('draft'), Type.Literal('final')], { default: 'draft' }),
      tags: Type.Array(Type.String(), { default: ['comp'] }),
      output: Type.Object({
        folder: Type.String({ default: '/renders' }),
        format: Type.Unsafe<string>({ type: 'string', enum: ['exr', 'png'], default: 'exr' }),
      }),
    }),
  },
});

// A zip writer (stored entries, no compression): enough for an addon package, without a zip library here.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function zipOf(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [path, text] of Object.entries(files)) {
    const name = Buffer.from(path);
    const data = Buffer.from(text);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });

/** Open a screen from the navigation, as a user would. */
async function openScreen(label: string, heading: string) {
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

const eventRow = (topic: string): Locator =>
  page.getByRole('table', { name: 'Events' }).locator('tbody tr').filter({ hasText: topic });

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['websocket', 'events', 'graphql', 'access', 'teams', 'bundles', 'settings', 'ayon-host'],
    screens: ['events', 'users', 'addons'],
    admin: ADMIN,
    extraAddons: [settingsProbe],
  }));
  expect((await api('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  session = await openBrowser(base);
  page = session.page;
}, 120_000);

afterAll(() => closeAll(session, core));

describe('the administration screens', () => {
  it('log in through the form', async () => {
    await page.goto(`${base}/`);
    await page.getByLabel('User name').fill(ADMIN.name);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: ADMIN.name, exact: true }).waitFor();
  });

  describe('events', () => {
    it('shows an event posted through the API as it arrives, without a reload', async () => {
      await openScreen('Events', 'Events');
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      const started = Date.now();
      const posted = await api('POST', '/api/events', {
        topic: 'render.shot.finished',
        description: 'Render of sh010 finished',
        project: 'demo',
        summary: { shot: 'sh010' },
        payload: { frames: 240, farm: 'node-12' },
      });
      expect(posted.status).toBe(200);
      await eventRow('render.shot.finished').waitFor();
      // The newest event is the first row.
      await expect(
        page.locator('table[aria-label="Events"] tbody tr').first().textContent(),
      ).resolves.toContain('render.shot.finished');
      console.info(`event arrived in the list ${Date.now() - started} ms after it was posted`);
      await screenshot(page, 'events');
    });

    it('opens the detail of an event with its summary and payload', async () => {
      await eventRow('render.shot.finished').click();
      const detail = page.getByRole('complementary', { name: 'Event detail' });
      await detail.getByRole('heading', { name: 'render.shot.finished' }).waitFor();
      await detail.getByLabel('Payload').filter({ hasText: '"farm": "node-12"' }).waitFor();
      await expect(detail.getByLabel('Summary').textContent()).resolves.toContain('"shot": "sh010"');
      await expect(detail.textContent()).resolves.toContain('Retries');
      // The open event is in the address, so a reload shows it again.
      expect(new URL(page.url()).searchParams.get('event')).toBeTruthy();
      await screenshot(page, 'event-detail');
      await detail.getByRole('button', { name: 'Close event detail' }).click();
    });

    it('filters by topic, in the history and in what arrives live', async () => {
      await api('POST', '/api/events', {
        topic: 'render.shot.started',
        description: 'Render of sh020 started',
      });
      await eventRow('render.shot.started').waitFor();
      await page.getByLabel('Topic starts with').fill('render.shot.f');
      // Only the finished render stays.
      await page.waitForFunction(
        () => document.querySelectorAll('table[aria-label="Events"] tbody tr').length === 1,
      );
      await api('POST', '/api/events', { topic: 'review.note.created', description: 'Not a render' });
      await api('POST', '/api/events', {
        topic: 'render.shot.failed',
        description: 'Render of sh030 failed',
      });
      await eventRow('render.shot.failed').waitFor();
      expect(await eventRow('review.note.created').count()).toBe(0);
      expect(await page.locator('table[aria-label="Events"] tbody tr').count()).toBe(2);
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await eventRow('review.note.created').waitFor();
    });

    it('pages back through older events', async () => {
      for (let i = 0; i < 60; i++)
        await api('POST', '/api/events', { topic: 'batch.item.created', description: `item ${i}` });
      await page.reload();
      const rows = page.locator('table[aria-label="Events"] tbody tr');
      await page.getByRole('button', { name: 'Load older events' }).waitFor();
      expect(await rows.count()).toBe(50);
      await page.getByRole('button', { name: 'Load older events' }).click();
      await page.getByText('That is the oldest event.').waitFor();
      await eventRow('server.initialized').waitFor();
      expect(await rows.count()).toBeGreaterThan(60);
      // Every event once: the pages join without gaps or repeats.
      const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event-id')));
      expect(new Set(ids).size).toBe(ids.length);
    });
  });

  describe('users', () => {
    it('creates a user and gives them an access group in a project', async () => {
      await openScreen('Users', 'People and access');
      await page.getByRole('button', { name: 'New user' }).click();
      const form = page.getByRole('form', { name: 'New user' });
      await form.getByLabel('User name').fill('jane');
      await form.getByLabel('Full name').fill('Jane Doe');
      await form.getByLabel('Email').fill('jane@example.com');
      await form.getByLabel('Password').fill('jane password');
      await form.getByRole('button', { name: 'Create user' }).click();

      const editor = page.getByRole('complementary', { name: 'User jane' });
      await editor.getByRole('checkbox', { name: 'artist in demo' }).check();
      await editor.getByRole('button', { name: 'Save access' }).click();
      await editor.getByText('Access saved.').waitFor();
      await page
        .getByRole('table', { name: 'Users' })
        .getByRole('row')
        .filter({ hasText: 'Jane Doe' })
        .waitFor();

      const jane = await api('GET', '/api/users/jane');
      expect(jane.body).toMatchObject({
        active: true,
        attrib: { fullName: 'Jane Doe', email: 'jane@example.com' },
        data: { accessGroups: { demo: ['artist'] } },
      });
      const login = await core.request('POST', '/api/auth/login', {
        body: { name: 'jane', password: 'jane password' },
      });
      expect(login.status).toBe(200);
      await screenshot(page, 'users');
    });

    it('deactivates a user', async () => {
      const editor = page.getByRole('complementary', { name: 'User jane' });
      await editor.getByRole('button', { name: 'Deactivate user' }).click();
      await editor.getByRole('button', { name: 'Deactivate jane' }).click();
      await editor.getByText('jane is deactivated.').waitFor();
      expect((await api('GET', '/api/users/jane')).body.active).toBe(false);
      await editor.getByRole('button', { name: 'Reactivate user' }).click();
      await editor.getByText('jane is active again.').waitFor();
      expect((await api('GET', '/api/users/jane')).body.active).toBe(true);
    });

    it('edits an access group’s permissions', async () => {
      await page.getByRole('tab', { name: 'Access groups' }).click();
      await page.getByRole('list', { name: 'Access groups' }).getByRole('button', { name: 'artist' }).click();
      const editor = page.getByRole('region', { name: 'Access group artist' });
      await editor.getByLabel('Create projects').check();
      await editor.getByRole('button', { name: 'Save permissions' }).click();
      await editor.getByText('Permissions saved.', { exact: false }).waitFor();
      expect((await api('GET', '/api/accessGroups/artist/_')).body.studio.create_projects).toBe(true);
      await screenshot(page, 'access-groups');
    });

    it('creates a team in a project with a leader', async () => {
      await page.getByRole('tab', { name: 'Teams' }).click();
      await page.getByLabel('New team name').fill('lighting');
      await page.getByRole('button', { name: 'Create team' }).click();
      const team = page.getByRole('region', { name: 'Team lighting' });
      await team.getByLabel('User to add').selectOption('jane');
      await team.getByLabel('as leader').check();
      await team.getByRole('button', { name: 'Add member' }).click();
      await team.getByRole('checkbox', { name: 'jane leads the team' }).waitFor();
      const teams = await api('GET', '/api/projects/demo/teams?show_members=true');
      expect(teams.body).toEqual([
        expect.objectContaining({
          name: 'lighting',
          leaders: [expect.objectContaining({ name: 'jane', leader: true })],
        }),
      ]);
    });

    it('creates an API key for a service user, shows it once, and revokes it', async () => {
      await page.getByRole('tab', { name: 'API keys' }).click();
      await page.getByLabel('New service user name').fill('render-farm');
      await page.getByRole('button', { name: 'Create service user' }).click();
      const keys = page.getByRole('region', { name: 'API keys of render-farm' });
      await keys.getByLabel('Key label').fill('farm node 12');
      await keys.getByRole('button', { name: 'Create key' }).click();
      const key = (await keys.getByLabel('New API key').textContent())!;
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      const asService = await core.request('GET', '/api/users/me', { apiKey: key });
      expect(asService.body).toMatchObject({ name: 'render-farm', data: { isService: true } });
      await keys.getByRole('table', { name: 'API keys' }).getByText('farm node 12').waitFor();
      await screenshot(page, 'api-keys');

      await keys.getByRole('button', { name: 'Revoke' }).click();
      await keys.getByRole('button', { name: 'Revoke farm node 12' }).click();
      await keys.getByText('No keys yet.', { exact: false }).waitFor();
      expect((await core.request('GET', '/api/users/me', { apiKey: key })).status).toBe(401);
    });
  });

  describe('addons', () => {
    it('lists the installed addons and installs a package, following its progress', async () => {
      await openScreen('Addons', 'Addons');
      await page.locator('tr[data-addon="settings-probe"]').waitFor();
      await page.locator('tr[data-addon="events"]').waitFor();
      await page.getByLabel('Addon package').setInputFiles({
        name: 'lamp-0.1.0.zip',
        mimeType: 'application/zip',
        buffer: zipOf({
          'manifest.json': JSON.stringify({ name: 'lamp', version: '0.1.0' }),
          'package.json': JSON.stringify({
            name: 'lamp',
            version: '0.1.0',
            type: 'module',
            exports: './index.js',
          }),
          'index.js': "export default { name: 'lamp', version: '0.1.0', title: 'Desk lamp' };",
        }),
      });
      await page.getByRole('button', { name: 'Install', exact: true }).click();
      const progress = page.getByRole('status', { name: 'Install progress' });
      await progress.getByText('Installed lamp 0.1.0').waitFor();
      await page.locator('tr[data-addon="lamp"]').getByText('Desk lamp').waitFor();
      await screenshot(page, 'addons');
    });

    it('creates a bundle from the installed versions as staging, then promotes it', async () => {
      await page.getByRole('tab', { name: 'Bundles' }).click();
      await page.getByText('No bundles yet', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'New bundle' }).click();
      const form = page.getByRole('form', { name: 'New bundle' });
      await form.getByLabel('Bundle name').fill('spring-2025');
      await expect(form.getByLabel('Version of lamp').inputValue()).resolves.toBe('0.1.0');
      await form.getByRole('button', { name: 'Create bundle' }).click();
      const row = page.locator('tr[data-bundle="spring-2025"]');
      await row.getByText('Staging').waitFor();
      expect((await api('GET', '/api/bundles')).body).toMatchObject({ stagingBundle: 'spring-2025' });

      await row.getByRole('button', { name: 'Promote to production' }).click();
      await row.getByRole('button', { name: 'Promote now' }).click();
      await row.getByText('Production and staging').waitFor();
      const bundles = (await api('GET', '/api/bundles')).body;
      expect(bundles.productionBundle).toBe('spring-2025');
      expect(bundles.bundles[0].addons).toMatchObject({
        lamp: '0.1.0',
        'settings-probe': '1.0.0',
        events: '1.0.0',
      });
      await screenshot(page, 'bundles');
    });

    it('edits an addon’s settings in a form made from its schema, showing refused values at their field', async () => {
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByLabel('Addon', { exact: true }).selectOption('settings-probe');
      const editor = page.getByRole('region', { name: 'Settings of settings-probe 1.0.0' });
      await editor.getByLabel('Greeting').fill('Hello studio');
      await editor.getByLabel('Quality').selectOption('final');
      await editor.getByLabel('Format').selectOption('png');
      await editor.getByRole('button', { name: 'Add to tags' }).click();
      await editor.getByLabel('Tags 2', { exact: true }).fill('lighting');
      // Above the schema's maximum: the server refuses it, and says so at the field.
      await editor.getByLabel('Retries').fill('99');
      await editor.getByRole('button', { name: 'Save settings' }).click();
      const retries = editor.locator('[data-field="retries"]');
      await retries.getByRole('alert').waitFor();
      await expect(retries.getByRole('alert').textContent()).resolves.toMatch(/10/);
      await screenshot(page, 'settings-invalid');

      await editor.getByLabel('Retries').fill('5');
      await editor.getByRole('button', { name: 'Save settings' }).click();
      await editor.getByText('Settings saved.', { exact: false }).waitFor();
      const settings = await api('GET', '/api/addons/settings-probe/1.0.0/settings');
      expect(settings.body).toEqual({
        greeting: 'Hello studio',
        retries: 5,
        enabled: true,
        quality: 'final',
        tags: ['comp', 'lighting'],
        output: { folder: '/renders', format: 'png' },
      });
      const overrides = await api('GET', '/api/addons/settings-probe/1.0.0/overrides');
      expect(overrides.body.root_greeting).toMatchObject({
        path: ['greeting'],
        value: 'Hello studio',
        level: 'studio',
      });
      expect(overrides.body.root_enabled).toBeUndefined();
      await editor.locator('[data-field="greeting"]').getByText('overridden').waitFor();
      await screenshot(page, 'settings');

      // One override back to the default.
      await editor
        .locator('[data-field="greeting"]')
        .getByRole('button', { name: 'Reset to default' })
        .click();
      await editor.getByText('greeting is back to its default.').waitFor();
      expect((await api('GET', '/api/addons/settings-probe/1.0.0/settings')).body.greeting).toBe('Hello');
    });
  });

  describe('an AYON package', () => {
    it('edits its settings field by field, its sub-models as groups and its choices by their labels', async () => {
      // The real ayon-blender, built by its own create_package.py; its settings are its pydantic models'.
      const built = execFileSync(resolve(repo, 'scripts/build-ayon-addons.sh'), { encoding: 'utf8' }).trim();
      const installed = await installPackage(core, token, readFileSync(`${built}/zips/blender-1.1.8.zip`));
      expect(installed.status).toBe('finished');
      await page.reload();
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByLabel('Addon', { exact: true }).selectOption('blender');
      const editor = page.getByRole('region', { name: 'Settings of blender 1.1.8' });
      await editor.getByRole('heading', { name: 'Blender 1.1.8 (production)' }).waitFor();
      const field = (path: string) => editor.locator(`[data-field="${path}"]`);
      await field('unit_scale_settings/base_file_unit_scale').getByRole('spinbutton').fill('0.01');
      const renderer = field('RenderSettings/renderer').getByRole('combobox');
      await expect(renderer.locator('option').allTextContents()).resolves.toEqual(['Cycles', 'Eevee']);
      await renderer.selectOption({ label: 'Eevee' });
      await editor.getByRole('button', { name: 'Save settings' }).click();
      await editor.getByText('Settings saved.', { exact: false }).waitFor();
      await screenshot(page, 'settings-ayon-package');
      const settings = await api('GET', '/api/addons/blender/1.1.8/settings');
      expect(settings.body.unit_scale_settings).toEqual({
        enabled: true,
        apply_on_opening: false,
        base_file_unit_scale: 0.01,
      });
      expect(settings.body.RenderSettings.renderer).toBe('BLENDER_EEVEE');
      // Only what changed is stored, as AYON stores it.
      const raw = await api('GET', '/api/addons/blender/1.1.8/rawOverrides');
      expect(raw.body).toEqual({
        unit_scale_settings: { base_file_unit_scale: 0.01 },
        RenderSettings: { renderer: 'BLENDER_EEVEE' },
      });
    });
  });

  it('never asked anything of a host other than its own server, and threw no uncaught error', () => {
    expect(session.foreignRequests).toEqual([]);
    expect(session.pageErrors).toEqual([]);
  });
});
