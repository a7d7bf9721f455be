import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';

// Two people at work in the built app, each in their own browser context on one fresh server: the administrator
// comments on a task in the overview's detail panel, mentioning the artist and attaching a file; the artist's
// inbox shows the message as it arrives, the artist opens the task from it and ticks a box of the comment's
// checklist; a status changed in the grid shows in the feed as a status activity.

const ADMIN = { name: 'admin', password: 'a strong password', fullName: 'Ada Admin' };
const ARTIST = { name: 'artie', password: 'another strong one', fullName: 'Artie Sanders' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let admin: Page;
let artist: Page;
let artistContext: BrowserContext;
let token: string;
/** Uncaught errors of the pages opened besides the admin's (the artist's, ...). */
const otherErrors: string[] = [];
const ids: Record<string, string> = {};
/** How long the live parts took, printed at the end for the closing note. */
const timings: Record<string, number> = {};

const api = (method: string, url: string, body?: unknown, as = token) =>
  core.request(method, url, { token: as, body });

async function graphql(query: string, as = token) {
  const res = await api('POST', '/graphql', { query }, as);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

/** A second person in the same browser: a context of their own (storage, session), held to the same server. */
async function secondContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await session.browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`)) return route.continue();
    session.foreignRequests.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => otherErrors.push(error.message));
  return { context, page };
}

async function logIn(page: Page, who: { name: string; password: string; fullName: string }) {
  await page.goto(`${base}/`);
  await page.getByLabel('User name').fill(who.name);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // The user menu shows the full name.
  await page.getByRole('button', { name: who.fullName, exact: true }).waitFor();
}

async function chooseProject(page: Page, name: string) {
  const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
  await switcher.focus();
  await page.locator('option', { hasText: `${name} (` }).waitFor({ state: 'attached' });
  await switcher.selectOption(name);
}

const navLink = (page: Page, label: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
const gridRow = (page: Page, name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const detail = (page: Page, name: string) => page.getByRole('complementary', { name: `Details of ${name}` });
const feedOf = (page: Page, name: string) => detail(page, name).getByRole('region', { name: 'Activity' });
const comments = (feed: Locator) => feed.locator('li.pwa-comment');

/** The activities of the task as the server has them, oldest first. */
async function taskActivities() {
  const data = await graphql(
    `{ project(name: "demo") { task(id: "${ids.task}") { activities { edges { node {
      activityId activityType body activityData files { name } reactions { userName reaction } } } } } } }`,
  );
  return data.project.task.activities.edges.map((edge: { node: unknown }) => edge.node) as {
    activityId: string;
    activityType: string;
    body: string;
    activityData: string;
    files: { name: string }[];
    reactions: { userName: string; reaction: string }[];
  }[];
}

async function artistInbox() {
  const data = await graphql(
    `
      {
        inbox(last: 50) {
          edges {
            node {
              activityId
              referenceType
              read
              active
              body
            }
          }
        }
      }
    `,
    artistToken,
  );
  return data.inbox.edges.map((edge: { node: unknown }) => edge.node) as {
    activityId: string;
    referenceType: string;
    read: boolean;
    active: boolean;
    body: string;
  }[];
}
let artistToken: string;

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'thumbnails', 'websocket', 'files', 'activities'],
    screens: ['entities', 'activities'],
    admin: ADMIN,
  }));
  expect(
    (await api('PATCH', `/api/users/${ADMIN.name}`, { attrib: { fullName: ADMIN.fullName } })).status,
  ).toBeLessThan(300);
  const artistCreated = await api('PUT', `/api/users/${ARTIST.name}`, {
    password: ARTIST.password,
    attrib: { fullName: ARTIST.fullName },
    data: { accessGroups: { demo: ['artist'] } },
  });
  expect(artistCreated.status).toBe(204);
  const artistLogin = await core.request('POST', '/api/auth/login', {
    body: { name: ARTIST.name, password: ARTIST.password },
  });
  expect(artistLogin.status).toBe(200);
  artistToken = artistLogin.body.token;

  expect((await api('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/api/projects/demo/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  ids.sequence = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  ids.shot = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: ids.sequence });
  ids.task = await create('tasks', { name: 'compositing', taskType: 'Compositing', folderId: ids.shot });

  session = await openBrowser(base);
  admin = session.page;
  ({ context: artistContext, page: artist } = await secondContext());
}, 120_000);

afterAll(async () => {
  await artistContext?.close();
  await closeAll(session, core);
  if (Object.keys(timings).length) console.log('collaboration timings (ms):', timings);
});

describe('collaboration in the web app', () => {
  it('shows an empty feed in the detail panel of a task, and an empty inbox to the artist', async () => {
    await logIn(admin, ADMIN);
    await chooseProject(admin, 'demo');
    await navLink(admin, 'Overview').click();
    await gridRow(admin, 'sq010').getByRole('button', { name: 'Open sq010' }).click();
    await gridRow(admin, 'sh010').getByRole('button', { name: 'Open sh010' }).click();
    await gridRow(admin, 'compositing').click();
    const feed = feedOf(admin, 'compositing');
    await feed.getByText('No comments yet.').waitFor();
    await feed.getByText('Nobody watches this yet').waitFor();

    await logIn(artist, ARTIST);
    await navLink(artist, 'Inbox').click();
    await artist.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await artist.getByText('Your inbox is empty.').waitFor();
    // The count loads on its own ("… unread" until it arrives).
    await artist
      .getByLabel('Unread messages')
      .filter({ hasText: /^0 unread$/ })
      .waitFor();
  });

  it('comments with a mention chosen from the suggestions and an attached file', async () => {
    const feed = feedOf(admin, 'compositing');
    const box = feed.getByRole('combobox', { name: 'Comment' });
    await box.click();
    await box.pressSequentially('Please check this, @art');
    const option = feed.getByRole('option', { name: /Artie Sanders/ });
    await option.waitFor();
    await box.press('Enter');
    // The box shows the person by name; the body sent keeps the markdown link the server reads (checked below).
    await expect(box.inputValue()).resolves.toBe('Please check this, @Artie Sanders ');
    await box.pressSequentially('before the review:');
    await box.press('Shift+Enter');
    await box.pressSequentially('- [ ] fix the edges');
    await box.press('Shift+Enter');
    await box.pressSequentially('- [ ] match the grain');

    await feed.locator('input[type="file"]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('edge matte notes'),
    });
    await feed.getByRole('list', { name: 'Files to attach' }).getByText('16 B').waitFor();
    // Marks the artist's page: a reload would lose it.
    await artist.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    const sentAt = Date.now();
    await feed.getByRole('button', { name: 'Comment', exact: true }).click();

    const comment = comments(feed).first();
    await comment.getByRole('article', { name: 'Comment by Ada Admin' }).waitFor();
    await comment.locator('.pwa-mention-user', { hasText: '@Artie Sanders' }).waitFor();
    await comment.getByRole('button', { name: 'notes.txt' }).waitFor();
    await expect(comment.getByRole('checkbox').count()).resolves.toBe(2);
    // Commenting made the admin a watcher.
    await feed.getByText('You watch this').waitFor();
    await expect(box.inputValue()).resolves.toBe('');

    const [stored] = (await taskActivities()).filter((a) => a.activityType === 'comment');
    expect(stored!.body).toBe(
      `Please check this, [Artie Sanders](user:${ARTIST.name}) before the review:\n- [ ] fix the edges\n- [ ] match the grain`,
    );
    expect(stored!.files).toEqual([{ name: 'notes.txt' }]);
    ids.comment = stored!.activityId;
    timings.sentToFeed = Date.now() - sentAt;
    ids.sentAt = String(sentAt);
  });

  it("lands in the artist's inbox as it arrives, without a reload", async () => {
    const message = artist.locator(`li.pwa-message[data-activity-id="${ids.comment}"]`);
    await message.waitFor();
    timings.sentToInbox = Date.now() - Number(ids.sentAt);
    await expect(message.getAttribute('aria-label')).resolves.toBe('Unread: Ada Admin mentioned you');
    await expect(message.textContent()).resolves.toContain('demo / sq010 / sh010 / compositing');
    await message.getByText('@Artie Sanders').waitFor();
    await message.getByText('important').waitFor();
    await artist.getByLabel('Unread messages').filter({ hasText: '1 unread' }).waitFor();
    await expect(artist.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).resolves.toBe(
      true,
    );
    await screenshot(artist, 'inbox');
  });

  it('is marked read, filtered, archived and brought back', async () => {
    const message = artist.locator(`li.pwa-message[data-activity-id="${ids.comment}"]`);
    await message.getByRole('button', { name: 'Mark read' }).click();
    await message.getByRole('button', { name: 'Mark unread' }).waitFor();
    await artist.getByLabel('Unread messages').filter({ hasText: '0 unread' }).waitFor();
    expect((await artistInbox()).find((m) => m.activityId === ids.comment)).toMatchObject({
      referenceType: 'mention',
      read: true,
      active: true,
    });

    await artist.getByLabel('Unread only').check();
    await artist.getByText('Nothing unread.').waitFor();
    await artist.getByLabel('Unread only').uncheck();
    await message.getByRole('button', { name: 'Archive' }).click();
    await artist.getByText('Your inbox is empty.').waitFor();
    expect((await artistInbox()).find((m) => m.activityId === ids.comment)).toBeUndefined();
    await artist.getByLabel('Hide archived').uncheck();
    await message.getByRole('button', { name: 'Unarchive' }).click();
    await artist.getByLabel('Hide archived').check();
    await message.waitFor();
    expect((await artistInbox()).find((m) => m.activityId === ids.comment)).toMatchObject({ active: true });
  });

  it('opens the task in the overview of its project', async () => {
    const message = artist.locator(`li.pwa-message[data-activity-id="${ids.comment}"]`);
    // The artist never chose a project: the link names it, and the app switches to it.
    await message.getByRole('button', { name: 'Open' }).click();
    const feed = feedOf(artist, 'compositing');
    await comments(feed).first().getByRole('article', { name: 'Comment by Ada Admin' }).waitFor();
    // The link's project and task were taken out of the address once followed.
    expect(artist.url()).toBe(`${base}/addon/entities/overview_remote`);
    await expect(artist.getByRole('combobox', { name: 'Project', exact: true }).inputValue()).resolves.toBe(
      'demo',
    );
    await expect(gridRow(artist, 'compositing').getAttribute('aria-selected')).resolves.toBe('true');
  });

  it("lets the artist tick a box of the admin's comment, which the admin sees live", async () => {
    const feed = feedOf(artist, 'compositing');
    const first = comments(feed).first().getByRole('checkbox', { name: 'fix the edges' });
    // The artist may not edit or delete the admin's comment.
    await expect(comments(feed).first().getByRole('button', { name: 'Edit' }).count()).resolves.toBe(0);
    const saved = artist.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().includes('/activities/'),
    );
    await first.check();
    expect((await saved).status()).toBe(204);
    const [stored] = (await taskActivities()).filter((a) => a.activityType === 'comment');
    expect(stored!.body).toContain('- [x] fix the edges\n- [ ] match the grain');

    const adminBox = comments(feedOf(admin, 'compositing'))
      .first()
      .getByRole('checkbox', { name: 'fix the edges' });
    await admin.waitForFunction(
      () =>
        (document.querySelector('li.pwa-comment input[type="checkbox"]') as HTMLInputElement | null)
          ?.checked === true,
    );
    await expect(adminBox.isChecked()).resolves.toBe(true);
  });

  it('shows a status change made in the grid as a status activity', async () => {
    const statusCell = gridRow(admin, 'compositing').locator('[data-column="status"]');
    await statusCell.dblclick();
    const changedAt = Date.now();
    await admin.getByLabel('Status of compositing').selectOption('In progress');
    const feed = feedOf(admin, 'compositing');
    const change = feed.locator('li[data-activity-type="status.change"]');
    await change.waitFor();
    timings.statusToFeed = Date.now() - changedAt;
    await expect(change.textContent()).resolves.toMatch(
      /Ada Admin changed the status (from .+ )?to In progress/,
    );
    // The artist's feed follows as well.
    await feedOf(artist, 'compositing').locator('li[data-activity-type="status.change"]').waitFor();
    // The detail panel scrolls by itself: bring the feed into the picture.
    await detail(admin, 'compositing')
      .getByRole('tab', { name: 'Activity' })
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await screenshot(admin, 'activity-feed');
  });

  it('renders what a body holds as text, never as markup, and keeps only safe links', async () => {
    const posted = await api('POST', `/api/projects/demo/tasks/${ids.task}/activities`, {
      activityType: 'comment',
      body: [
        '<img src=x onerror="window.injected=1"> **bold** and `code`',
        '[a trap](javascript:window.injected=2) and [the docs](https://example.com/docs)',
        `See [sh010](folder:${ids.shot})`,
      ].join('\n'),
    });
    expect(posted.status).toBe(201);
    // Made through the API, it reaches the open feed live.
    const comment = comments(feedOf(admin, 'compositing')).filter({ hasText: 'a trap' });
    await comment.waitFor();
    await comment.getByText('<img src=x onerror="window.injected=1">', { exact: false }).waitFor();
    await expect(comment.locator('img').count()).resolves.toBe(0);
    await expect(comment.locator('strong', { hasText: 'bold' }).count()).resolves.toBe(1);
    await expect(comment.getByRole('link', { name: 'a trap' }).count()).resolves.toBe(0);
    await expect(comment.getByRole('link', { name: 'the docs' }).getAttribute('href')).resolves.toBe(
      'https://example.com/docs',
    );
    expect(await admin.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();

    // A mention of a folder opens it in the overview, without leaving the page.
    await comment.getByRole('link', { name: 'sh010' }).click();
    await detail(admin, 'sh010').waitFor();
    await expect(gridRow(admin, 'sh010').getAttribute('aria-selected')).resolves.toBe('true');
    await gridRow(admin, 'compositing').click();
    await detail(admin, 'compositing').waitFor();
    await api('DELETE', `/api/projects/demo/activities/${posted.body.id}`);
    await comment.waitFor({ state: 'detached' });
  });

  it('reacts, edits and deletes in the feed', async () => {
    const feed = feedOf(admin, 'compositing');
    const comment = comments(feed).first();
    await comment.getByRole('button', { name: 'Add a reaction' }).click();
    await comment.getByRole('button', { name: 'Thumbs up', exact: true }).click();
    await comment.getByRole('button', { name: 'Thumbs up: you', exact: true }).waitFor();
    // The artist's reaction joins it, live on the admin's side.
    await comments(feedOf(artist, 'compositing'))
      .first()
      .getByRole('button', { name: /Thumbs up: Ada Admin/ })
      .click();
    await comment.getByRole('button', { name: /Thumbs up: you, Artie Sanders/ }).waitFor();
    expect(
      (await taskActivities()).find((a) => a.activityId === ids.comment)!.reactions.map((r) => r.userName),
    ).toEqual([ADMIN.name, ARTIST.name]);

    await comment.getByRole('button', { name: 'Edit' }).click();
    const edit = comment.getByRole('combobox', { name: 'Edit the comment' });
    await edit.fill('Please check this before the review.');
    await comment.getByRole('button', { name: 'Save' }).click();
    await comment.getByText('Please check this before the review.').waitFor();
    await comments(feedOf(artist, 'compositing'))
      .first()
      .getByText('Please check this before the review.')
      .waitFor();

    const box = feed.getByRole('combobox', { name: 'Comment' });
    await box.fill('A note to delete');
    await box.press('Control+Enter');
    const second = comments(feed).filter({ hasText: 'A note to delete' });
    await second.waitFor();
    await second.getByRole('button', { name: 'Delete' }).click();
    await second.getByRole('button', { name: 'Delete this comment' }).click();
    await second.waitFor({ state: 'detached' });
    expect((await taskActivities()).filter((a) => a.activityType === 'comment')).toHaveLength(1);
  });

  it('watches and stops watching', async () => {
    const feed = feedOf(artist, 'compositing');
    await feed.getByText('1 watching').waitFor();
    await feed.getByRole('button', { name: 'Watch', exact: true }).click();
    await feed.getByText('You and 1 other watch this').waitFor();
    expect((await api('GET', `/api/projects/demo/tasks/${ids.task}/watchers`)).body.watchers.sort()).toEqual([
      ADMIN.name,
      ARTIST.name,
    ]);
    await feed.getByRole('button', { name: 'Stop watching' }).click();
    await feed.getByText('1 watching').waitFor();
  });

  it('pages back through a long conversation', async () => {
    const feed = feedOf(admin, 'compositing');
    const before = await comments(feed).count();
    const batch = await api('POST', '/api/projects/demo/operations/activities', {
      operations: Array.from({ length: 40 }, (_, i) => ({
        type: 'create',
        data: {
          entityType: 'task',
          entityId: ids.task,
          activityType: 'comment',
          body: `Take ${String(i + 1).padStart(2, '0')}`,
        },
      })),
    });
    expect(batch.body.success).toBe(true);
    // The newest page arrives live; the older ones wait for the button.
    await comments(feed).filter({ hasText: 'Take 40' }).waitFor();
    await expect(comments(feed).filter({ hasText: 'Take 01' }).count()).resolves.toBe(0);
    await feed.getByRole('button', { name: 'Show older activity' }).click();
    await comments(feed).filter({ hasText: 'Take 01' }).waitFor();
    await expect(comments(feed).count()).resolves.toBe(before + 40);
    await expect(feed.getByRole('button', { name: 'Show older activity' }).count()).resolves.toBe(0);
    const order = await comments(feed)
      .filter({ hasText: /^.*Take \d\d/ })
      .allTextContents();
    expect(order.map((text) => /Take (\d\d)/.exec(text)![1])).toEqual(
      Array.from({ length: 40 }, (_, i) => String(i + 1).padStart(2, '0')),
    );
  });

  it('leaves a quiet note in the detail panel when the activities addon is missing or fails to load', async () => {
    const { context, page } = await secondContext();
    const deepLink = `${base}/addon/entities/overview_remote?project=demo&task=${ids.task}`;
    const note = 'Comments and what happened to this task show here when the activities addon is installed.';
    try {
      // Not installed: the server lists no remote of the activities addon.
      await context.route('**/api/frontendModules?*', async (route) => {
        const response = await route.fetch();
        const modules = (await response.json()) as { addonName: string }[];
        await route.fulfill({ response, json: modules.filter((m) => m.addonName !== 'activities') });
      });
      await logIn(page, ADMIN);
      await page.goto(deepLink);
      await detail(page, 'compositing').getByText(note).waitFor();
      await expect(navLink(page, 'Inbox').count()).resolves.toBe(0);

      // Listed, but its files do not load: the same note, and the rest of the panel works.
      await context.unroute('**/api/frontendModules?*');
      await context.route('**/addons/activities/**', (route) => route.abort());
      await page.goto(deepLink);
      await navLink(page, 'Inbox').waitFor();
      await detail(page, 'compositing').getByText(note).waitFor();
      await expect(detail(page, 'compositing').getByRole('alert').count()).resolves.toBe(0);
      await detail(page, 'compositing').getByText('Nothing published from this task yet.').waitFor();
    } finally {
      await context.close();
    }
  });

  it('never asked anything of another host, and threw no uncaught error', () => {
    expect(session.foreignRequests).toEqual([]);
    expect(session.pageErrors).toEqual([]);
    expect(otherErrors).toEqual([]);
  });
});
