import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, logIn, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';

// The overview on a project of 10,000 folders and 30,000 tasks (100 sequences of 99 shots, three tasks on each
// folder), seeded through /operations in batches: how long until the first rows show, until a filter across the
// whole project shows its result, a second filter once the project is read, and opening a sequence. The figures
// are printed for the closing note; the limits are generous for a shared two-core machine.

const ADMIN = { name: 'admin', password: 'a strong password' };
const SEQUENCES = 100;
const SHOTS = 99;
const TASKS = ['anim', 'light', 'comp'];
const BATCH = 2500;

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
const timings: Record<string, number> = {};

const newId = () => randomBytes(16).toString('hex');
const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const summary = (text: string) => page.getByRole('toolbar', { name: 'Grid tools' }).getByText(text);

async function send(operations: unknown[]) {
  for (let i = 0; i < operations.length; i += BATCH) {
    const res = await core.request('POST', '/api/projects/scale/operations', {
      token,
      body: { operations: operations.slice(i, i + BATCH) },
    });
    expect([res.status, res.body.success ?? res.body]).toEqual([200, true]);
  }
}

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'thumbnails', 'websocket'],
    screens: ['entities'],
    admin: ADMIN,
  }));
  expect(
    (await core.request('POST', '/api/projects', { token, body: { name: 'scale', code: 'sc' } })).status,
  ).toBe(201);
  const folders: unknown[] = [];
  const tasks: unknown[] = [];
  const task = (folderId: string) => {
    for (const [i, name] of TASKS.entries())
      tasks.push({
        type: 'create',
        entityType: 'task',
        data: {
          name,
          taskType: ['Animation', 'Lighting', 'Compositing'][i],
          folderId,
          status: i ? 'Not ready' : 'In progress',
        },
      });
  };
  for (let s = 0; s < SEQUENCES; s++) {
    const sequence = newId();
    const name = `sq${String(s).padStart(3, '0')}`;
    folders.push({
      type: 'create',
      entityType: 'folder',
      data: { id: sequence, name, folderType: 'Sequence' },
    });
    task(sequence);
    for (let h = 0; h < SHOTS; h++) {
      const shot = newId();
      folders.push({
        type: 'create',
        entityType: 'folder',
        data: {
          id: shot,
          name: `${name}_sh${String(h * 10).padStart(4, '0')}`,
          folderType: 'Shot',
          parentId: sequence,
        },
      });
      task(shot);
    }
  }
  expect(folders).toHaveLength(10_000);
  expect(tasks).toHaveLength(30_000);
  const started = Date.now();
  await send(folders);
  await send(tasks);
  timings.seedThroughOperations = Date.now() - started;

  session = await openBrowser(base);
  page = session.page;
  await logIn(page, `${base}/`, ADMIN);
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}, 600_000);

afterAll(async () => {
  console.info(`overview on 10,000 folders and 30,000 tasks (ms): ${JSON.stringify(timings)}`);
  await closeAll(session, core);
});

describe('the overview on 10,000 folders and 30,000 tasks', () => {
  it('shows the first rows, filters across the whole project and opens a sequence in reasonable time', async () => {
    const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
    await switcher.focus();
    await page.locator('option', { hasText: 'scale (sc)' }).waitFor({ state: 'attached' });
    await switcher.selectOption('scale');
    const opened = Date.now();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Overview', exact: true })
      .click();
    await gridRow('sq000').waitFor({ timeout: 60_000 });
    timings.firstRows = Date.now() - opened;
    await summary(`${SEQUENCES} shown`).waitFor();

    // A text filter needs every folder and task: the first one reads the whole project.
    const filtered = Date.now();
    await page.getByLabel('Filter by name or path').fill('sq042_sh0500');
    await gridRow('sq042_sh0500').waitFor({ timeout: 120_000 });
    timings.firstFilterFirstMatch = Date.now() - filtered;
    await summary('4 found').waitFor({ timeout: 120_000 });
    timings.firstFilter = Date.now() - filtered;

    // Once read, another filter is work in the page alone, typed a key at a time as people do.
    await page.getByLabel('Filter by name or path').fill('');
    await summary(`${SEQUENCES} shown`).waitFor();
    const again = Date.now();
    await page.getByLabel('Filter by name or path').pressSequentially('sq007_sh09');
    await summary('36 found').waitFor();
    timings.secondFilterTyped = Date.now() - again;
    const status = Date.now();
    await page.getByLabel('Filter by name or path').fill('');
    await page.getByLabel('Status filter').selectOption('In progress');
    await summary('10,000 found').waitFor();
    timings.statusFilter = Date.now() - status;
    await screenshot(page, 'overview-40000-entities-filtered');

    await page.getByLabel('Status filter').selectOption('');
    await summary(`${SEQUENCES} shown`).waitFor();
    const open = Date.now();
    await gridRow('sq005').getByRole('button', { name: 'Open sq005' }).click();
    await gridRow('sq005_sh0000').waitFor();
    timings.openSequence = Date.now() - open;

    expect(timings.firstRows).toBeLessThan(10_000);
    expect(timings.firstFilter).toBeLessThan(60_000);
    expect(timings.secondFilterTyped).toBeLessThan(10_000);
  }, 400_000);
});
