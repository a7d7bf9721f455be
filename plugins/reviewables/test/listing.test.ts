import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { P, buildWorld, makeMedia, type Media, type World } from './world.js';

let w: World;
let media: Media;
/** Reviewables uploaded in beforeAll, by a short name. */
const uploaded: Record<string, { fileId: string; activityId: string }> = {};

const as = (type: string, name: string) => ({ headers: { 'content-type': type, 'x-file-name': name } });

beforeAll(async () => {
  [w, media] = await Promise.all([buildWorld(), makeMedia()]);
  const upload = async (
    key: string,
    person: 'artie' | 'bea',
    version: string,
    bytes: Buffer,
    options: any,
  ) => {
    const res = await w.upload(person, version, bytes, options);
    if (res.status !== 200) throw new Error(`upload ${key}: ${res.status} ${res.text}`);
    uploaded[key] = res.body;
  };
  await upload('take', 'artie', w.ids.model1, media.mp4, { label: 'Take', ...as('video/mp4', 'take.mp4') });
  await upload('still', 'bea', w.ids.model1, media.png, as('image/png', 'still.png'));
  await upload('prores', 'artie', w.ids.model3, media.mov, as('video/quicktime', 'master.mov'));
  await upload('look', 'artie', w.ids.look1, media.avi, as('video/x-msvideo', 'look.avi'));
  await upload('anim', 'bea', w.ids.anim1, media.yuv444, as('video/mp4', 'anim.mp4'));
});
afterAll(() => w?.core.close());

/** A listing as (version name, product name, file names) rows. */
const shape = (versions: any[]) =>
  versions.map((v) => [v.name, v.productName, v.reviewables.map((r: any) => r.filename)]);

describe('GET /versions/{id}/reviewables', () => {
  it("answers the version in AYON's shape with its reviewables in upload order", async () => {
    const res = await w.as('vic', 'GET', `${P}/versions/${w.ids.model1}/reviewables`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: w.ids.model1,
      name: 'v001',
      version: '1',
      status: expect.any(String),
      productId: w.ids.modelMain,
      productName: 'modelMain',
      productType: 'model',
      attrib: expect.any(Object),
    });
    expect(res.body.reviewables).toEqual([
      expect.objectContaining({
        ...uploaded.take,
        filename: 'take.mp4',
        label: 'Take',
        mimetype: 'video/mp4',
        availability: 'ready',
        processing: null,
        createdFrom: null,
        author: { name: 'artie', fullName: 'Artie Person' },
      }),
      expect.objectContaining({
        ...uploaded.still,
        filename: 'still.png',
        label: null,
        availability: 'ready',
        author: { name: 'bea', fullName: 'Bea Person' },
      }),
    ]);
    expect(res.body.reviewables[0].mediaInfo).toMatchObject({ codec: 'h264', width: 320, height: 240 });
  });

  it('answers a version without reviewables with an empty list', async () => {
    const res = await w.as('artie', 'GET', `${P}/versions/${w.ids.model2}/reviewables`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'v002', version: '2', reviewables: [] });
    const hero = await w.as('artie', 'GET', `${P}/versions/${w.ids.modelHero}/reviewables`);
    expect(hero.body).toMatchObject({ name: 'HERO', version: '-3' });
  });
});

describe('GET /products|tasks|folders/{id}/reviewables', () => {
  it('lists every version of a product by number, HERO first', async () => {
    const res = await w.as('artie', 'GET', `${P}/products/${w.ids.modelMain}/reviewables`);
    expect(res.status).toBe(200);
    expect(shape(res.body)).toEqual([
      ['HERO', 'modelMain', []],
      ['v001', 'modelMain', ['take.mp4', 'still.png']],
      ['v002', 'modelMain', []],
      ['v003', 'modelMain', ['master.mov']],
    ]);
    expect(res.body[3].reviewables[0].availability).toBe('conversionRequired');
  });

  it("lists a task's versions across products, by number then product name", async () => {
    const res = await w.as('artie', 'GET', `${P}/tasks/${w.ids.modeling}/reviewables`);
    expect(res.status).toBe(200);
    expect(shape(res.body)).toEqual([
      ['HERO', 'modelMain', []],
      ['v001', 'lookMain', ['look.avi']],
      ['v001', 'modelMain', ['take.mp4', 'still.png']],
      ['v002', 'modelMain', []],
      ['v003', 'modelMain', ['master.mov']],
    ]);
    expect(res.body[1]).toMatchObject({ productId: w.ids.lookMain, productType: 'look' });
    const animation = await w.as('bea', 'GET', `${P}/tasks/${w.ids.animation}/reviewables`);
    expect(shape(animation.body)).toEqual([['v001', 'animMain', ['anim.mp4']]]);
    expect(animation.body[0].reviewables[0].availability).toBe('conversionRecommended');
  });

  it("lists the versions of a folder's own products, not those of its subfolders", async () => {
    const tree = await w.as('artie', 'GET', `${P}/folders/${w.ids.tree}/reviewables`);
    expect(tree.status).toBe(200);
    expect(shape(tree.body).map(([name, product]) => `${product}/${name}`)).toEqual([
      'modelMain/HERO',
      'lookMain/v001',
      'modelMain/v001',
      'modelMain/v002',
      'modelMain/v003',
    ]);
    expect((await w.as('artie', 'GET', `${P}/folders/${w.ids.assets}/reviewables`)).body).toEqual([]);
  });

  it('keeps only the latest version of each product with latest, or the latest done one with latest_done', async () => {
    const latest = await w.as('artie', 'GET', `${P}/folders/${w.ids.tree}/reviewables?latest=true`);
    expect(shape(latest.body)).toEqual([
      ['v001', 'lookMain', ['look.avi']],
      ['v003', 'modelMain', ['master.mov']],
    ]);
    const project = (await w.as('root', 'GET', P)).body;
    const done = project.statuses.find((status: any) => status.state === 'done').name;
    for (const id of [w.ids.model1, w.ids.model2])
      expect((await w.as('root', 'PATCH', `${P}/versions/${id}`, { status: done })).status).toBe(204);
    const approved = await w.as(
      'artie',
      'GET',
      `${P}/products/${w.ids.modelMain}/reviewables?latest_done=true`,
    );
    expect(shape(approved.body)).toEqual([['v002', 'modelMain', []]]);
    const none = await w.as('artie', 'GET', `${P}/products/${w.ids.lookMain}/reviewables?latest_done=true`);
    expect(none.body).toEqual([]);
  });

  it('forgets a reviewable whose activity is deleted', async () => {
    const id = (await w.as('root', 'POST', `${P}/versions`, { version: 20, productId: w.ids.lookMain })).body
      .id as string;
    const res = await w.upload('artie', id, media.mp4);
    expect((await w.as('artie', 'DELETE', `${P}/activities/${res.body.activityId}`)).status).toBe(204);
    expect((await w.as('artie', 'GET', `${P}/versions/${id}/reviewables`)).body.reviewables).toEqual([]);
  });
});

describe('who may read', () => {
  const reads = () => [
    `${P}/versions/${w.ids.anim1}/reviewables`,
    `${P}/products/${w.ids.animMain}/reviewables`,
    `${P}/tasks/${w.ids.animation}/reviewables`,
    `${P}/folders/${w.ids.sh010}/reviewables`,
  ];

  it('every project user who can read the entity: 200', async () => {
    for (const person of ['root', 'boss', 'artie', 'bea', 'vic', 'gus'] as const)
      for (const url of reads())
        expect([person, url, (await w.as(person, 'GET', url)).status]).toEqual([person, url, 200]);
    expect((await w.as('farm', 'GET', reads()[0])).status).toBe(200);
  });

  it('hides what the caller cannot read (404), refuses other projects (403) and anonymous callers (401)', async () => {
    for (const url of reads()) {
      expect((await w.as('fran', 'GET', url)).status).toBe(404);
      expect((await w.as('olga', 'GET', url)).status).toBe(403);
      expect((await w.as(undefined, 'GET', url)).status).toBe(401);
    }
    // The freelancer reads the folder of her task, and only its versions.
    const tree = await w.as('fran', 'GET', `${P}/tasks/${w.ids.modeling}/reviewables`);
    expect(tree.status).toBe(200);
    expect(tree.body.length).toBeGreaterThan(0);
  });

  it('answers 404 for what does not exist and 422 for ids that are not ids', async () => {
    const missing = 'ab'.repeat(16);
    for (const type of ['versions', 'products', 'tasks', 'folders']) {
      expect((await w.as('root', 'GET', `${P}/${type}/${missing}/reviewables`)).status).toBe(404);
      const bad = await w.as('root', 'GET', `${P}/${type}/nope/reviewables`);
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].loc[0]).toBe('path');
    }
    expect((await w.as('root', 'GET', `/api/projects/nowhere/versions/${missing}/reviewables`)).status).toBe(
      404,
    );
  });
});

describe('GraphQL hasReviewables', () => {
  it('tells folders (their products), tasks and versions with review media, and kanban cards the newest', async () => {
    const res = await w.as('boss', 'POST', '/graphql', {
      query: `{ project(name: "demo") {
          folders { edges { node { name hasReviewables } } }
          tasks { edges { node { name hasReviewables } } }
          versions { edges { node { id hasReviewables } } } }
          kanban(projects: ["demo"]) { edges { node { name hasReviewables lastVersionWithReviewableVersionId lastVersionWithReviewableProductId } } } }`,
    });
    expect(res.body.errors).toBeUndefined();
    const by = (edges: any[], key: string) => Object.fromEntries(edges.map(({ node }) => [node[key], node]));
    const folders = by(res.body.data.project.folders.edges, 'name');
    expect([folders.assets, folders.tree, folders.shots, folders.sh010].map((f) => f.hasReviewables)).toEqual(
      [false, true, false, true],
    );
    const tasks = by(res.body.data.project.tasks.edges, 'name');
    expect([tasks.modeling.hasReviewables, tasks.animation.hasReviewables]).toEqual([true, true]);
    const versions = by(res.body.data.project.versions.edges, 'id');
    expect(
      [w.ids.model1, w.ids.model2, w.ids.model3, w.ids.modelHero, w.ids.look1].map(
        (id) => versions[id].hasReviewables,
      ),
    ).toEqual([true, false, true, false, true]);
    // look1 is the modeling task's newest version with review media (created after model1 and model3).
    expect(by(res.body.data.kanban.edges, 'name').modeling).toEqual({
      name: 'modeling',
      hasReviewables: true,
      lastVersionWithReviewableVersionId: w.ids.look1,
      lastVersionWithReviewableProductId: w.ids.lookMain,
    });
  });
});
