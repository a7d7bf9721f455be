import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, eventually, seedUser, type TestCore } from '@pipewright/core/testing';

// A synced review session through its routes: who drives, what each command does to the state, hand-offs, and the
// events every player follows. boss is a manager; artie and bea artists of show; gus a guest; eve has no access.
let core: TestCore;
let boss: string;
let artie: string;
let bea: string;
let gus: string;
let eve: string;
let versions: string[] = [];
let other: string;
let base: string;

const as = (token: string) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token, body });

beforeAll(async () => {
  core = await bootTestCore({ addons: ['review-sessions', 'lists', 'access', 'users'] });
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
    name: 'comp',
    productType: 'render',
    folderId: folder,
  });
  versions = [
    await make('/api/projects/show/versions', { version: 1, productId: product }),
    await make('/api/projects/show/versions', { version: 2, productId: product }),
  ];
  other = await make('/api/projects/show/versions', { version: 3, productId: product });
  const list = await make('/api/projects/show/lists', {
    label: 'Dailies',
    entityListType: 'review-session',
    entityType: 'version',
    access: { __everyone__: 10 },
    items: versions.map((entityId) => ({ entityId })),
  });
  base = `/api/projects/show/lists/${list}/session`;
});
afterAll(() => core.close());

describe('review sessions', () => {
  it('are driven by the first to join; the others follow every change, heard as events', async () => {
    const heard: any[] = [];
    const stop = core.events.subscribe(
      'review_session.changed',
      async (event) => void heard.push(event.summary),
    );
    expect((await as(artie)('GET', base)).status).toBe(404);
    const first = await as(artie)('POST', base, { command: 'join' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      driver: 'artie',
      members: { artie: 'driver' },
      versionId: versions[0],
    });
    expect((await as(bea)('POST', base, { command: 'join' })).body.members).toEqual({
      artie: 'driver',
      bea: 'reviewer',
    });
    expect((await as(gus)('POST', base, { command: 'join', role: 'reviewer' })).body.members.gus).toBe(
      'viewer',
    );
    expect((await as(eve)('POST', base, { command: 'join' })).status).toBe(403);

    expect((await as(bea)('POST', base, { command: 'play', frame: 1001 })).status).toBe(403);
    const before = Date.now();
    const play = await as(artie)('POST', base, { command: 'play', frame: 1001 });
    expect(play.body).toMatchObject({ playing: true, frame: 1001, speed: 1 });
    expect(play.body.startedAt).toBeGreaterThanOrEqual(before);
    expect(play.body.startedAt).toBeLessThanOrEqual(play.body.serverTime);
    // A play may say when it happened by the server's clock (the command was on its way): within the last 5 s.
    const when = async (at: number) =>
      (await as(artie)('POST', base, { command: 'play', frame: 1001, at })).body.startedAt;
    const past = Date.now() - 2000;
    expect(await when(past)).toBe(past);
    expect(await when(Date.now() - 60_000)).toBeGreaterThanOrEqual(past + 2000);
    expect(await when(Date.now() + 60_000)).toBeLessThanOrEqual(Date.now());
    const pause = await as(artie)('POST', base, { command: 'pause', frame: 1013 });
    expect(pause.body).toMatchObject({ playing: false, frame: 1013, startedAt: null });
    expect((await as(artie)('POST', base, { command: 'select', versionId: other })).status).toBe(400);
    const select = await as(artie)('POST', base, {
      command: 'select',
      versionId: versions[1],
      frame: 1020,
    });
    expect(select.body).toMatchObject({ versionId: versions[1], frame: 1020, playing: false });
    for (const command of [
      { command: 'view', view: { zoom: 2, x: 0.1, y: -0.2 } },
      { command: 'compare', compare: { mode: 'wipe', wipe: 0.3 } },
      { command: 'annotations', visible: false },
      { command: 'speed', speed: 0.5 },
    ])
      expect((await as(artie)('POST', base, command)).status).toBe(200);
    const now = (await as(gus)('GET', base)).body;
    expect(now).toMatchObject({
      view: { zoom: 2, x: 0.1, y: -0.2 },
      compare: { mode: 'wipe', wipe: 0.3 },
      annotations: false,
      speed: 0.5,
    });
    await eventually(() => heard.at(-1)?.revision === now.revision);
    stop();
    // Every change was one revision, heard in order, with the whole state.
    expect(heard.map((s) => s.revision)).toEqual(heard.map((_, i) => heard[0].revision + i));
    expect(heard.at(-1)).toMatchObject({ revision: now.revision, speed: 0.5 });
    for (const bad of [
      { command: 'play' },
      { command: 'seek', frame: 1.5 },
      { command: 'fly', frame: 1 },
      { command: 'speed', speed: 0 },
    ])
      expect((await as(artie)('POST', base, bad)).status).toBe(422);
  });

  it('pass control only when the driver or a manager hands it on, or to whoever takes it when nobody drives', async () => {
    expect((await as(bea)('POST', base, { command: 'hand', to: 'bea' })).status).toBe(403);
    expect((await as(artie)('POST', base, { command: 'hand', to: 'eve' })).status).toBe(400);
    expect((await as(artie)('POST', base, { command: 'hand', to: 'gus' })).status).toBe(409);
    const handed = await as(artie)('POST', base, { command: 'hand', to: 'bea' });
    expect(handed.body).toMatchObject({ driver: 'bea', members: { artie: 'reviewer', bea: 'driver' } });
    expect((await as(artie)('POST', base, { command: 'seek', frame: 1002 })).status).toBe(403);
    expect((await as(bea)('POST', base, { command: 'seek', frame: 1002 })).body.frame).toBe(1002);
    expect((await as(boss)('POST', base, { command: 'join' })).status).toBe(200);
    expect((await as(boss)('POST', base, { command: 'hand', to: 'artie' })).body.driver).toBe('artie');
    expect((await as(artie)('POST', base, { command: 'leave' })).body).toMatchObject({ driver: null });
    expect((await as(bea)('POST', base, { command: 'hand', to: 'bea' })).body.driver).toBe('bea');
    const asked: any[] = [];
    const stop = core.events.subscribe(
      'review_session.requested',
      async (event) => void asked.push(event.summary),
    );
    expect((await as(boss)('POST', base, { command: 'request' })).body.driver).toBe('bea');
    await eventually(() => asked.length > 0);
    stop();
    expect(asked).toEqual([expect.objectContaining({ from: 'boss', driver: 'bea' })]);
  });

  it("give the server's clock for clients to correct theirs", async () => {
    const before = Date.now();
    const { serverTime } = (await as(artie)('GET', '/api/review-sessions/clock')).body;
    expect(serverTime).toBeGreaterThanOrEqual(before);
    expect(serverTime).toBeLessThanOrEqual(Date.now());
  });
});
