import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, screenshot, startWebApp } from './browser';

// Item 2 of issue 38: the inbox keeps kinds apart. A mention comes first and is important; eight-at-once
// assignments are one notice of their own kind, neither a mention nor important; and every entity is named by its
// full path, so two sh040 of two sequences are told apart, in the inbox and in the event log.

const ADMIN = { name: 'admin', password: 'a strong password', fullName: 'Ada Admin' };
const ARTIST = { name: 'artie', password: 'another strong one', fullName: 'Artie Sanders' };
const PROJECT = 'trialshow';
const PATH_1 = 'trialshow / ep01 / sq010 / sh040 / animation';
const PATH_2 = 'trialshow / ep01 / sq020 / sh040 / animation';

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
const tasks: string[] = [];

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });
// The link's name carries the unread count once it is read ("Inbox 9 unread").
const inboxLink = () => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Inbox/ });

async function logInAs(who: { name: string; password: string; fullName: string }) {
  await logIn(page, `${base}/`, who);
  await page.getByRole('button', { name: who.fullName, exact: true }).waitFor();
}

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'websocket', 'files', 'activities', 'events'],
    screens: ['activities', 'events'],
    admin: ADMIN,
  }));
  await api('PATCH', `/api/users/${ADMIN.name}`, { attrib: { fullName: ADMIN.fullName } });
  const artist = await api('PUT', `/api/users/${ARTIST.name}`, {
    password: ARTIST.password,
    attrib: { fullName: ARTIST.fullName },
    data: { accessGroups: { [PROJECT]: ['artist'] } },
  });
  expect(artist.status).toBe(204);
  expect((await api('POST', '/api/projects', { name: PROJECT, code: 'ts' })).status).toBe(201);
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/api/projects/${PROJECT}/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const episode = await create('folders', { name: 'ep01', folderType: 'Episode' });
  for (const sequence of ['sq010', 'sq020']) {
    const sq = await create('folders', { name: sequence, folderType: 'Sequence', parentId: episode });
    const shot = await create('folders', { name: 'sh040', folderType: 'Shot', parentId: sq });
    for (const [name, taskType] of [
      ['animation', 'Animation'],
      ['lighting', 'Lighting'],
      ['compositing', 'Compositing'],
      ['fx', 'FX'],
    ])
      tasks.push(await create('tasks', { name, taskType, folderId: shot }));
  }
  // The mention comes first in time: newest-first alone would bury it under the assignments.
  const comment = await api('POST', `/api/projects/${PROJECT}/tasks/${tasks[4]}/activities`, {
    activityType: 'comment',
    body: `[${ARTIST.fullName}](user:${ARTIST.name}) the tail of the jump needs another pass.`,
  });
  expect(comment.status).toBe(201);
  // One bulk action: the artist on all eight tasks in one request.
  const bulk = await api('POST', `/api/projects/${PROJECT}/operations`, {
    operations: tasks.map((id) => ({
      type: 'update',
      entityType: 'task',
      entityId: id,
      data: { assignees: [ARTIST.name] },
    })),
  });
  expect(bulk.status).toBe(200);
  expect(bulk.body.success).toBe(true);
  session = await openBrowser(base);
  page = session.page;
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
});

describe('the inbox of an artist assigned to eight tasks at once and mentioned once', () => {
  it('lists the mention first, as important, with the full path of its task', async () => {
    await logInAs(ARTIST);
    await inboxLink().click();
    const first = page.locator('li.pwa-message').first();
    await first.waitFor();
    await expect(first.getAttribute('aria-label')).resolves.toBe('Unread: Ada Admin mentioned you');
    await first.getByText('important', { exact: true }).waitFor();
    await first.getByText(PATH_2, { exact: true }).waitFor();
    await page
      .getByRole('region', { name: 'Mentions and replies' })
      .getByText('the tail of the jump needs another pass.')
      .waitFor();
  });

  it('shows the assignments as one notice of their own kind, not a mention and not important', async () => {
    const assignments = page.getByRole('region', { name: 'Assignments' });
    const notice = assignments.locator('li.pwa-message');
    await notice.first().waitFor();
    await expect(notice.count()).resolves.toBe(1);
    await expect(notice.textContent()).resolves.toContain('Ada Admin assigned you to 8 tasks');
    await expect(notice.getAttribute('aria-label')).resolves.not.toContain('mentioned you');
    await expect(notice.getByText('important', { exact: true }).count()).resolves.toBe(0);
    // Nothing about an assignment reads as a mention anywhere in the inbox.
    await expect(page.locator('li.pwa-message', { hasText: 'mentioned you' }).count()).resolves.toBe(1);
    await expect(page.locator('.pwa-important').count()).resolves.toBe(1);

    await notice.getByRole('button', { name: 'Show the 8 tasks' }).click();
    const listed = notice.getByRole('list', { name: 'Tasks' }).getByRole('listitem');
    await expect(listed.count()).resolves.toBe(8);
    // The two sh040 are told apart by their sequences.
    await notice.getByText(PATH_1, { exact: true }).waitFor();
    await notice.getByText(PATH_2, { exact: true }).waitFor();
    await screenshot(page, 'inbox-kinds');
  });

  it('names the entity of an event row with its parents', async () => {
    await page.getByRole('button', { name: ARTIST.fullName, exact: true }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByLabel('User name').waitFor();
    await logInAs(ADMIN);
    await page.goto(`${base}/addon/events/events_screens`);
    const table = page.getByRole('table', { name: 'Events' });
    await table.locator('tr', { hasText: PATH_1 }).first().waitFor();
    await table.locator('tr', { hasText: PATH_2 }).first().waitFor();
    await table.locator('tr', { hasText: 'trialshow / ep01 / sq020 / sh040' }).first().waitFor();
    await screenshot(page, 'events-paths');
  });
});
