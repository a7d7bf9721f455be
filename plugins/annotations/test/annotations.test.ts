import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { activitiesRef } from '@pipewright/plugin-activities/api';

// Annotations of a reviewable through their routes. The reviewable is an activity of the version, made as the
// reviewables addon makes it; boss is a manager, artie and bea artists of show, gus a guest, eve has no access.
let core: TestCore;
let boss: string;
let artie: string;
let bea: string;
let gus: string;
let eve: string;
let base: string;
let version: string;

const as = (token: string) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token, body });
const stroke = (x: number) => ({
  kind: 'stroke',
  points: [
    [x, 0.1, 0.004],
    [x + 0.05, 0.12, 0.006],
    [x + 0.1, 0.1, 0.005],
  ],
});
const draw = async (token: string, frame: number, shape: unknown = stroke(0), extra = {}) => {
  const res = await as(token)('POST', base, { frame, color: '#ff3300', shape, ...extra });
  if (res.status !== 201) throw new Error(`draw: ${res.status} ${res.text}`);
  return res.body.id as string;
};
const onFrame = async (token: string, frame: number) => {
  const res = await as(token)('GET', `${base}?frame=${frame}`);
  expect(res.status).toBe(200);
  return res.body.annotations as any[];
};

beforeAll(async () => {
  core = await bootTestCore({ addons: ['annotations', 'access', 'users'] });
  boss = await seedUser(core, 'boss', { isManager: true });
  artie = await seedUser(core, 'artie', { accessGroups: { show: ['artist'] } });
  bea = await seedUser(core, 'bea', { accessGroups: { show: ['artist'] } });
  gus = await seedUser(core, 'gus', { isGuest: true, accessGroups: { show: ['artist'] } });
  eve = await seedUser(core, 'eve', {});
  const make = async (path: string, body: unknown) => {
    const res = await as(boss)('POST', path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  await make('/api/projects', { name: 'show', code: 'sh' });
  const folder = await make('/api/projects/show/folders', { name: 'sh010', folderType: 'Shot' });
  const product = await make('/api/projects/show/products', {
    name: 'renderMain',
    productType: 'render',
    folderId: folder,
  });
  version = await make('/api/projects/show/versions', { version: 1, productId: product });
  const reviewable = await core.services.get(activitiesRef).create('show', 'version', version, {
    type: 'reviewable',
    author: 'boss',
    body: "Uploaded a reviewable 'comp'",
    data: { reviewableLabel: 'comp' },
  });
  base = `/api/projects/show/versions/${version}/reviewables/${reviewable}/annotations`;
});
afterAll(() => core.close());

describe('annotations', () => {
  it('keep each object on its own integer frame, with its shape, colour and author', async () => {
    const heard: any[] = [];
    const stop = core.events.subscribe('annotation.*', async (event) => void heard.push(event));
    const line = await draw(artie, 1001);
    const box = await draw(artie, 1002, {
      kind: 'rectangle',
      from: [-0.6, -0.3],
      to: [0.2, 0.25],
      width: 0.003,
    });
    await draw(bea, 1002, { kind: 'text', at: [0, 0.4], text: 'Too dark here', size: 0.03 });
    stop();
    expect(await onFrame(artie, 1001)).toEqual([
      expect.objectContaining({ id: line, frame: 1001, color: '#ff3300', author: 'artie', shape: stroke(0) }),
    ]);
    const second = await onFrame(bea, 1002);
    expect(second.map((a) => [a.shape.kind, a.author])).toEqual([
      ['rectangle', 'artie'],
      ['text', 'bea'],
    ]);
    expect(second[0].id).toBe(box);
    expect(await onFrame(artie, 1003)).toEqual([]);
    const range = await as(artie)('GET', `${base}?fromFrame=1001&toFrame=1002`);
    expect(range.body.annotations.map((a: any) => a.frame)).toEqual([1001, 1002, 1002]);
    expect(heard.map((event) => [event.topic, event.summary.frame, event.project])).toEqual([
      ['annotation.created', 1001, 'show'],
      ['annotation.created', 1002, 'show'],
      ['annotation.created', 1002, 'show'],
    ]);
  });

  it('keep all of 100 objects drawn on one frame by two people at once; deleting one removes only it', async () => {
    const drawn = await Promise.all(
      Array.from({ length: 100 }, (_, i) => draw(i % 2 ? artie : bea, 1010, stroke(i / 100))),
    );
    const shown = await onFrame(artie, 1010);
    expect(shown).toHaveLength(100);
    expect(new Set(shown.map((a) => a.id))).toEqual(new Set(drawn));
    const gone = drawn[37]!;
    expect((await as(bea)('DELETE', `${base}/${gone}`)).status).toBe(403);
    expect((await as(artie)('DELETE', `${base}/${gone}`)).status).toBe(204);
    const left = await onFrame(bea, 1010);
    expect(left).toHaveLength(99);
    expect(left.map((a) => a.id)).toEqual(shown.map((a) => a.id).filter((id) => id !== gone));
  });

  it('are changed by their author or a manager; a retry with the same id is refused, not doubled', async () => {
    const id = await draw(artie, 1020, stroke(0), { id: 'a'.repeat(32) });
    expect(id).toBe('a'.repeat(32));
    const again = await as(artie)('POST', base, { id, frame: 1020, color: '#ff3300', shape: stroke(0) });
    expect(again.status).toBe(409);
    expect((await as(bea)('PATCH', `${base}/${id}`, { color: '#00ff00' })).status).toBe(403);
    expect((await as(artie)('PATCH', `${base}/${id}`, { frame: 1021, color: '#00ff00' })).status).toBe(204);
    expect(await onFrame(artie, 1020)).toEqual([]);
    expect(await onFrame(artie, 1021)).toEqual([expect.objectContaining({ id, color: '#00ff00' })]);
    expect((await as(boss)('DELETE', `${base}/${id}`)).status).toBe(204);
    expect(await onFrame(artie, 1021)).toEqual([]);
  });

  it('show an object being drawn to the others at once, and keep nothing of it', async () => {
    const heard: any[] = [];
    const stop = core.events.subscribe('annotation.drawing', async (event) => void heard.push(event));
    const growing = { id: 'e'.repeat(32), frame: 1030, color: '#00ff00', shape: stroke(0.2) };
    expect((await as(bea)('POST', `${base}/live`, growing)).status).toBe(204);
    stop();
    expect(heard.map((event) => event.summary)).toEqual([
      expect.objectContaining({ annotationId: growing.id, frame: 1030, shape: growing.shape, author: 'bea' }),
    ]);
    expect(await onFrame(bea, 1030)).toEqual([]);
    expect((await as(gus)('POST', `${base}/live`, growing)).status).toBe(403);
    expect((await as(bea)('POST', `${base}/live`, { ...growing, id: undefined })).status).toBe(422);
  });

  it('are for those who may read the version; guests only look; bad input is a 4xx', async () => {
    expect((await as(eve)('GET', base)).status).toBe(403);
    expect((await as(gus)('GET', base)).status).toBe(200);
    expect((await as(gus)('POST', base, { frame: 1, color: '#ffffff', shape: stroke(0) })).status).toBe(403);
    const elsewhere = base.replace(/reviewables\/[0-9a-f]+/, `reviewables/${'b'.repeat(32)}`);
    expect((await as(artie)('GET', elsewhere)).status).toBe(404);
    for (const body of [
      { frame: 1.5, color: '#ffffff', shape: stroke(0) },
      { frame: 1, color: 'red', shape: stroke(0) },
      { frame: 1, color: '#ffffff', shape: { kind: 'stroke', points: [] } },
      { frame: 1, color: '#ffffff', shape: { kind: 'blob', points: [[0, 0, 0.1]] } },
      { frame: 1, color: '#ffffff', shape: { kind: 'text', at: [0, 0], text: '', size: 0.1 } },
    ])
      expect((await as(artie)('POST', base, body)).status).toBe(422);
    expect((await as(artie)('DELETE', `${base}/${'c'.repeat(32)}`)).status).toBe(404);
  });
});
