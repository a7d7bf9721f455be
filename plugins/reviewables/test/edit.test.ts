import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { P, buildWorld, makeMedia, type Media, type Person, type World } from './world.js';

let w: World;
let media: Media;

beforeAll(async () => {
  [w, media] = await Promise.all([buildWorld(), makeMedia()]);
});
afterAll(() => w?.core.close());

let nextVersion = 10;
/** A new version of modelMain with reviewables uploaded by these people, named r0, r1, ... by upload order. */
async function versionWith(uploaders: Person[]): Promise<{ id: string; reviewables: string[] }> {
  const id = (
    await w.as('root', 'POST', `${P}/versions`, {
      version: nextVersion++,
      productId: w.ids.modelMain,
      taskId: w.ids.modeling,
    })
  ).body.id as string;
  const reviewables: string[] = [];
  for (const [index, person] of uploaders.entries()) {
    const res = await w.upload(person, id, media.png, {
      label: `r${index}`,
      headers: { 'content-type': 'image/png', 'x-file-name': `r${index}.png` },
    });
    if (res.status !== 200) throw new Error(`upload: ${res.status} ${res.text}`);
    reviewables.push(res.body.activityId);
  }
  return { id, reviewables };
}

const listed = async (versionId: string) =>
  (await w.as('root', 'GET', `${P}/versions/${versionId}/reviewables`)).body.reviewables as any[];
const order = async (versionId: string) => (await listed(versionId)).map((r) => r.label);
const sort = (person: Person | undefined, versionId: string, body: unknown) =>
  w.as(person, 'PATCH', `${P}/versions/${versionId}/reviewables`, body);
const relabel = (person: Person | undefined, versionId: string, activityId: string, body: unknown) =>
  w.as(person, 'PATCH', `${P}/versions/${versionId}/reviewables/${activityId}`, body);

describe('PATCH /versions/{id}/reviewables (order)', () => {
  it('puts the reviewables in the order given; later uploads come after them', async () => {
    const {
      id,
      reviewables: [a, b, c],
    } = await versionWith(['artie', 'artie', 'artie']);
    expect(await order(id)).toEqual(['r0', 'r1', 'r2']);
    expect((await sort('artie', id, { sort: [c, a, b] })).status).toBe(204);
    expect(await order(id)).toEqual(['r2', 'r0', 'r1']);
    const later = await w.upload('artie', id, media.png, {
      label: 'r3',
      headers: { 'content-type': 'image/png', 'x-file-name': 'r3.png' },
    });
    expect(later.status).toBe(200);
    expect(await order(id)).toEqual(['r2', 'r0', 'r1', 'r3']);
    // The order is kept where AYON keeps it, in the activities' data.
    const stored = (await w.rows('activities')).find((row) => row.id === c)!;
    expect(stored.data.reviewableOrder).toBe(0);
  });

  it('wants every reviewable of the version exactly once (422), and changes nothing otherwise', async () => {
    const {
      id,
      reviewables: [a, b],
    } = await versionWith(['artie', 'artie']);
    const other = (await versionWith(['artie'])).reviewables[0];
    const missing = await sort('artie', id, { sort: [b] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { loc: ['body', 'sort'], msg: expect.stringContaining(a), type: 'value_error.missing' },
    ]);
    const stranger = await sort('artie', id, { sort: [b, a, other] });
    expect(stranger.status).toBe(422);
    expect(stranger.body.errors).toEqual([
      { loc: ['body', 'sort', 2], msg: expect.stringContaining(other), type: 'value_error.unknown' },
    ]);
    const twice = await sort('artie', id, { sort: [b, a, b] });
    expect(twice.status).toBe(422);
    expect(twice.body.errors[0].loc).toEqual(['body', 'sort', 2]);
    // Any text is taken (AYON's list is of strings): one that is not an id is not a reviewable of the version.
    const notIds = await sort('artie', id, { sort: ['x'] });
    expect(notIds.status).toBe(422);
    expect(notIds.body.errors[0]).toMatchObject({ loc: ['body', 'sort', 0], type: 'value_error.unknown' });
    expect(await order(id)).toEqual(['r0', 'r1']);
  });

  it('does nothing without a list, and accepts an empty list for a version without reviewables', async () => {
    const { id } = await versionWith(['artie', 'artie']);
    expect((await sort('artie', id, {})).status).toBe(204);
    expect((await sort('artie', id, { sort: null })).status).toBe(204);
    expect(await order(id)).toEqual(['r0', 'r1']);
    const empty = await versionWith([]);
    expect((await sort('artie', empty.id, { sort: [] })).status).toBe(204);
  });

  it('lets managers reorder any version, others only versions whose reviewables they all uploaded', async () => {
    const {
      id,
      reviewables: [a, b],
    } = await versionWith(['artie', 'bea']);
    expect((await sort(undefined, id, { sort: [b, a] })).status).toBe(401);
    expect((await sort('artie', id, { sort: [b, a] })).status).toBe(403);
    expect((await sort('bea', id, { sort: [b, a] })).status).toBe(403);
    expect((await sort('olga', id, { sort: [b, a] })).status).toBe(403);
    expect(await order(id)).toEqual(['r0', 'r1']);
    expect((await sort('boss', id, { sort: [b, a] })).status).toBe(204);
    expect((await sort('root', id, { sort: [a, b] })).status).toBe(204);

    // Publishing rights are needed too: the viewer and the guest may not, even on what they could see.
    const viewers = await versionWith(['artie']);
    expect((await sort('vic', viewers.id, { sort: viewers.reviewables })).status).toBe(403);
    expect((await sort('gus', viewers.id, { sort: viewers.reviewables })).status).toBe(403);
    // Versions the caller cannot read do not exist for them.
    expect((await sort('fran', w.ids.anim1, { sort: [] })).status).toBe(404);
    expect((await sort('artie', 'ab'.repeat(16), { sort: [] })).status).toBe(404);
  });
});

describe('PATCH /versions/{id}/reviewables/{activity_id} (label)', () => {
  it('renames a reviewable: its uploader or a manager', async () => {
    const {
      id,
      reviewables: [a, b],
    } = await versionWith(['artie', 'bea']);
    const before = (await listed(id))[0];
    await new Promise((done) => setTimeout(done, 5));
    expect((await relabel('artie', id, a, { label: 'Hero shot' })).status).toBe(204);
    const after = (await listed(id))[0];
    expect(after.label).toBe('Hero shot');
    expect(after.createdAt).toBe(before.createdAt);
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect((await w.rows('activities')).find((row) => row.id === a)!.data.reviewableLabel).toBe('Hero shot');

    expect((await relabel(undefined, id, b, { label: 'x' })).status).toBe(401);
    expect((await relabel('artie', id, b, { label: 'x' })).status).toBe(403);
    expect((await relabel('olga', id, b, { label: 'x' })).status).toBe(403);
    expect((await relabel('gus', id, b, { label: 'x' })).status).toBe(403);
    expect((await relabel('bea', id, b, { label: 'Bea take' })).status).toBe(204);
    expect((await relabel('boss', id, a, { label: 'Boss pick' })).status).toBe(204);
    expect(await order(id)).toEqual(['Boss pick', 'Bea take']);
  });

  it("refuses empty and long labels (400, as AYON), keeps the label on null, and knows only the version's reviewables", async () => {
    const {
      id,
      reviewables: [a],
    } = await versionWith(['artie']);
    const other = await versionWith(['artie']);
    // AYON's model takes any text and its handler refuses these with 400.
    const empty = await relabel('artie', id, a, { label: '' });
    expect([empty.status, empty.body.detail]).toEqual([400, 'Label cannot be empty']);
    const long = await relabel('artie', id, a, { label: 'x'.repeat(256) });
    expect([long.status, long.body.detail]).toEqual([400, 'Label must be between 1 and 255 characters']);
    expect((await relabel('artie', id, a, { label: '🎬'.repeat(255) })).status).toBe(204);
    expect(await order(id)).toEqual(['🎬'.repeat(255)]);
    expect((await relabel('artie', id, a, { label: 'r0' })).status).toBe(204);
    expect((await relabel('artie', id, a, { label: null })).status).toBe(204);
    expect((await relabel('artie', id, a, {})).status).toBe(204);
    expect(await order(id)).toEqual(['r0']);
    expect((await relabel('artie', id, other.reviewables[0], { label: 'x' })).status).toBe(404);
    expect((await relabel('artie', id, 'ab'.repeat(16), { label: 'x' })).status).toBe(404);
    expect((await relabel('fran', w.ids.anim1, a, { label: 'x' })).status).toBe(404);
    expect((await relabel('vic', id, a, { label: 'x' })).status).toBe(403);
  });
});
