import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, logIn, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';

// A coordinator publishes from the overview alone: a product in a shot, a version of it linked to a task with a
// video uploaded through the review screen's own upload bar, then "Open in review" plays it. The next version is
// proposed with the next number, and a refusal of the server is shown in its words.

const ADMIN = { name: 'admin', password: 'a strong password' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
let media: string;
const ids: Record<string, string> = {};

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });

interface ProductRow {
  id: string;
  name: string;
  productType: string;
  versions: { edges: { node: { id: string; version: number; taskId: string | null; author: string } }[] };
}
/** The products of sh010 with their versions, as the server holds them. */
async function productsOfShot(): Promise<ProductRow[]> {
  const res = await api('POST', '/graphql', {
    query: `{ project(name: "show") { folder(id: "${ids.shot}") { products { edges { node {
      id name productType versions { edges { node { id version taskId author } } } } } } } } }`,
  });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.project.folder.products.edges.map((e: { node: ProductRow }) => e.node);
}

const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const button = (name: string | RegExp) =>
  page.getByRole('toolbar', { name: 'Grid tools' }).getByRole('button', { name, exact: true });

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'publish-e2e-'));
  // A 2 s H.264 clip, made with Debian's ffmpeg as the review test does.
  await promisify(execFile)('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'testsrc=duration=2:size=320x240:rate=24', '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
    join(media, 'shot.mp4'),
  ]);
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'websocket', 'files', 'thumbnails', 'activities', 'reviewables'],
    screens: ['entities', 'reviewables'],
    admin: ADMIN,
  }));
  expect((await api('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/api/projects/show/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  ids.sequence = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  ids.shot = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: ids.sequence });
  ids.comp = await create('tasks', { name: 'comp', taskType: 'Compositing', folderId: ids.shot });
  // A product type of this project's own, elsewhere in it: offered first.
  await create('products', { name: 'mattePaint', productType: 'matte', folderId: ids.sequence });

  session = await openBrowser(base);
  page = session.page;
  await logIn(page, `${base}/`, ADMIN);
  const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
  await switcher.focus();
  await page.locator('option', { hasText: 'show (sh)' }).waitFor({ state: 'attached' });
  await switcher.selectOption('show');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Overview', exact: true })
    .click();
  await gridRow('sq010').getByRole('button', { name: 'Open sq010' }).click();
  await gridRow('sh010').getByRole('button', { name: 'Open sh010' }).click();
  await gridRow('comp').waitFor();
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
  if (media) await rm(media, { recursive: true, force: true });
});

describe('products and versions from the overview', () => {
  it('needs a folder or task chosen first', async () => {
    await expect(button('New product').isDisabled()).resolves.toBe(true);
    await expect(button('New version').isDisabled()).resolves.toBe(true);
  });

  it('creates a product, a version of it linked to a task, uploads a video and plays it in review', async () => {
    await gridRow('comp').click();
    await button('New product').click();
    const product = page.getByRole('dialog', { name: 'New product' });
    await product.getByText('In /sq010/sh010').waitFor();
    await product.getByLabel('Product name').fill('renderMain');
    // The project's own product types are offered first, then the usual ones; any may be typed.
    await product.locator('datalist option[value="matte"]').waitFor({ state: 'attached' });
    const offered = await product
      .locator('datalist option')
      .evaluateAll((options) => options.map((o) => o.getAttribute('value')));
    expect(offered[0]).toBe('matte');
    expect(offered).toContain('render');
    await product.getByLabel('Product type').fill('render');
    await product.getByRole('button', { name: 'Create product' }).click();

    // The version follows: the new product, number 1, the task that was chosen in the grid.
    const version = page.getByRole('dialog', { name: 'New version' });
    await expect(version.getByLabel('Product').locator('option:checked').textContent()).resolves.toMatch(
      /^renderMain \(render/,
    );
    await expect(version.getByLabel('Version number').inputValue()).resolves.toBe('1');
    await expect(version.getByLabel('Task').locator('option:checked').textContent()).resolves.toBe(
      'comp (Compositing)',
    );
    await version.getByRole('button', { name: 'Create v001' }).click();

    const done = page.getByRole('dialog', { name: 'renderMain v001' });
    const upload = done.getByRole('region', { name: 'Upload to v001' });
    await upload.getByLabel('Video or image file').setInputFiles(join(media, 'shot.mp4'));
    await upload.getByRole('button', { name: 'Upload to v001' }).click();
    await done.getByText('One reviewable uploaded.').waitFor();

    const [stored] = await productsOfShot();
    expect(stored).toMatchObject({ name: 'renderMain', productType: 'render' });
    const v1 = stored!.versions.edges[0]!.node;
    expect(v1).toMatchObject({ version: 1, taskId: ids.comp, author: ADMIN.name });
    ids.product = stored!.id;
    const reviewables = await api('GET', `/api/projects/show/versions/${v1.id}/reviewables`);
    expect(reviewables.body.reviewables.map((r: { filename: string }) => r.filename)).toEqual(['shot.mp4']);

    await screenshot(page, 'overview-new-version');
    await done.getByRole('button', { name: 'Open in review' }).click();
    // The review screen opens on the version and plays its video without another click.
    await page.getByLabel('Video: shot.mp4').waitFor();
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.2);
    await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Pause' }).waitFor();
    // The address names the version (a reload reopens it) and no longer asks to play.
    expect(new URL(page.url()).searchParams.get('version')).toBe(v1.id);
    expect(new URL(page.url()).searchParams.get('play')).toBeNull();
    expect(session.pageErrors).toEqual([]);
  });

  it('proposes the next version number, and shows the server refusing a number taken meanwhile', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Overview', exact: true })
      .click();
    await gridRow('sq010').getByRole('button', { name: 'Open sq010' }).click();
    await gridRow('sh010').click();
    await button('New version').click();
    const version = page.getByRole('dialog', { name: 'New version' });
    await expect(version.getByLabel('Version number').inputValue()).resolves.toBe('2');
    await expect(version.getByLabel('Task').locator('option:checked').textContent()).resolves.toBe('No task');
    // Someone else publishes v002 while the dialog is open.
    expect(
      (await api('POST', '/api/projects/show/versions', { version: 2, productId: ids.product })).status,
    ).toBe(201);
    await version.getByRole('button', { name: 'Create v002' }).click();
    const refusal = version.getByRole('alert');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toMatch(/^The version was not created: .*\S/);
    // The words are the server's, not a status code.
    expect(await refusal.textContent()).not.toMatch(/\b409\b|undefined|\[object/);

    await version.getByLabel('Version number').fill('3');
    await version.getByRole('button', { name: 'Create v003' }).click();
    await page
      .getByRole('dialog', { name: 'renderMain v003' })
      .getByRole('button', { name: 'Close' })
      .click();
    const numbers = (await productsOfShot())[0]!.versions.edges.map((e) => e.node.version).sort();
    expect(numbers).toEqual([1, 2, 3]);
  });
});
