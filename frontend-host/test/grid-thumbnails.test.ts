import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, logIn, openBrowser, startWebApp, type BrowserSession } from './browser';

// Each grid row shows its entity's thumbnail, read through the server's thumbnail route, and a placeholder when
// it has none; a thumbnail uploaded by someone else while the grid is open shows without Refresh.

const ADMIN = { name: 'admin', password: 'a strong password' };
const PNG_2X3 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEElEQVR4nGP4z8AARAwoFABE0AX7pM/egAAAAABJRU5ErkJggg==',
  'base64',
);

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
const ids: Record<string, string> = {};

const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const upload = (id: string) =>
  core.request('POST', `/api/projects/thumbs/folders/${id}/thumbnail`, {
    token,
    body: PNG_2X3,
    headers: { 'content-type': 'image/png' },
  });
/** The size of the row's thumbnail as the browser decoded it, or null when the row shows no image. */
const shownSize = (name: string) =>
  gridRow(name)
    .locator('[data-column="name"]')
    .evaluate((cell) => {
      const image = cell.querySelector('img');
      return image && image.complete ? [image.naturalWidth, image.naturalHeight] : null;
    });

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'thumbnails', 'websocket'],
    screens: ['entities'],
    admin: ADMIN,
  }));
  expect(
    (await core.request('POST', '/api/projects', { token, body: { name: 'thumbs', code: 'th' } })).status,
  ).toBe(201);
  for (const name of ['sh010', 'sh020'])
    ids[name] = (
      await core.request('POST', '/api/projects/thumbs/folders', {
        token,
        body: { name, folderType: 'Shot' },
      })
    ).body.id;
  expect((await upload(ids.sh010!)).status).toBeLessThan(300);

  session = await openBrowser(base);
  page = session.page;
  await logIn(page, `${base}/`, ADMIN);
  const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
  await switcher.focus();
  await page.locator('option', { hasText: 'thumbs (th)' }).waitFor({ state: 'attached' });
  await switcher.selectOption('thumbs');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Overview', exact: true })
    .click();
  await gridRow('sh020').waitFor();
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
});

async function poll<T>(read: () => Promise<T>, expected: T, ms = 10_000) {
  const end = Date.now() + ms;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  expect(value).toEqual(expected);
}

describe('thumbnails in the grid', () => {
  it('shows the thumbnail of a shot that has one, and a placeholder for one that has none', async () => {
    await poll(() => shownSize('sh010'), [2, 3]);
    expect(await shownSize('sh020')).toBeNull();
    await expect(gridRow('sh020').locator('[data-column="name"] .pwo-kind-folder').count()).resolves.toBe(1);
  });

  it('shows a thumbnail uploaded elsewhere while the grid is open, without Refresh', async () => {
    // The first upload may race the page's subscription: upload again until it shows.
    const end = Date.now() + 20_000;
    while ((await shownSize('sh020')) === null && Date.now() < end) {
      expect((await upload(ids.sh020!)).status).toBeLessThan(300);
      await new Promise((r) => setTimeout(r, 2000));
    }
    expect(await shownSize('sh020')).toEqual([2, 3]);
  });
});
