import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  SERVICE_KEY,
  buildWorld,
  comment,
  commentOk,
  eventsOf,
  fileInfo,
  referencesOf,
  upload,
  type World,
} from './world.js';

// Comments: who may write, edit and delete them, what they reference, and the events they send.
let world: World;
let core: World['core'];
let t: World['tokens'];
let ids: World['ids'];
const task = () => ({ type: 'task', id: ids.modeling });
const activity = async (id: string) =>
  (await core.db
    .withSchema('project_demo')
    .selectFrom('activities')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()) as any;
const patch = (token: string, id: string, body: unknown) =>
  core.request('PATCH', `/api/projects/demo/activities/${id}`, { token, body });
const remove = (token: string, id: string) =>
  core.request('DELETE', `/api/projects/demo/activities/${id}`, { token });
const watchers = async (type: string, id: string) =>
  (await core.request('GET', `/api/projects/demo/${type}s/${id}/watchers`, { token: t.root })).body.watchers;

beforeAll(async () => {
  world = await buildWorld();
  ({ core, tokens: t, ids } = world);
});
afterAll(() => core?.close());

describe('creating a comment', () => {
  it('stores the comment with its origin, parents and author, and references what it concerns', async () => {
    const res = await comment(
      world,
      t.bea,
      task(),
      `Looks good, [Artie](user:artie)! See [sh010](folder:${ids.sh010})`,
    );
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^[0-9a-f]{32}$/);
    const row = await activity(res.body.id);
    expect(row.activity_type).toBe('comment');
    expect(row.data).toMatchObject({
      author: 'bea',
      origin: { type: 'task', id: ids.modeling, name: 'modeling', label: null, subtype: 'Modeling' },
      parents: [{ type: 'folder', id: ids.tree, name: 'tree', subtype: 'Asset' }],
    });
    // artie is both assignee and mentioned: addressed once, as mentioned. The task's folder and version are related.
    expect(await referencesOf(world, res.body.id)).toEqual(
      [
        'author:bea',
        `mention:${ids.sh010}`,
        'mention:artie',
        `origin:${ids.modeling}`,
        `relation:${ids.tree}`,
        `relation:${ids.v1}`,
      ].sort(),
    );
  });

  it('makes the commenter a watcher of the entity, once', async () => {
    expect(await watchers('task', ids.modeling)).toEqual(['bea']);
    await commentOk(world, t.bea, task(), 'again');
    expect(await watchers('task', ids.modeling)).toEqual(['bea']);
  });

  it('addresses watchers and assignees of later comments, never the author', async () => {
    const id = await commentOk(world, t.root, task(), 'A note from root');
    expect(await referencesOf(world, id)).toEqual(
      [
        'author:root',
        `origin:${ids.modeling}`,
        `relation:${ids.tree}`,
        `relation:${ids.v1}`,
        'relation:artie',
        'watching:bea',
      ].sort(),
    );
    const own = await commentOk(world, t.bea, task(), 'bea talks to herself');
    expect((await referencesOf(world, own)).filter((r) => r.endsWith(':bea'))).toEqual(['author:bea']);
  });

  it('sends activity.created (stored, in AYON summary keys) and inbox.message (live only)', async () => {
    const id = await commentOk(world, t.root, task(), 'Hey [Bea](user:bea)\nsecond line');
    const created = (await eventsOf(world, 'activity.created')).find(
      (e: any) => e.summary.activity_id === id,
    )!;
    expect(created).toMatchObject({
      project_name: 'demo',
      user_name: 'root',
      description: 'Created comment activity',
      payload: { body: 'Hey [Bea](user:bea)\nsecond line' },
    });
    expect(created.summary.activity_type).toBe('comment');
    expect(created.summary.references).toEqual(
      expect.arrayContaining([{ entity_id: ids.modeling, entity_type: 'task', reference_type: 'origin' }]),
    );
    expect(await eventsOf(world, 'inbox.message')).toEqual([]);
  });

  it('accepts snake_case fields, an explicit id (409 when taken), tags, a timestamp and extra data', async () => {
    const id = 'abcdef0123456789abcdef0123456789';
    const body = {
      id,
      activity_type: 'comment',
      body: 'tagged',
      tags: ['review'],
      timestamp: '2024-05-01T10:00:00Z',
      data: { category: 'internal', author: 'someone else', origin: 'forged' },
    };
    expect((await comment(world, t.artie, task(), body)).status).toBe(201);
    const row = await activity(id);
    expect(row.tags).toEqual(['review']);
    expect(new Date(row.created_at).toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect(row.data.category).toBe('internal');
    expect(row.data.author).toBe('artie');
    expect(row.data.origin.id).toBe(ids.modeling);
    const again = await comment(world, t.artie, task(), body);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 409, detail: 'An activity with this id already exists' });
  });

  it('attaches uploaded files: described in data.files and linked to the activity', async () => {
    const file = await upload(world, t.artie, 'notes.txt', 'twelve bytes');
    const id = await commentOk(world, t.artie, task(), {
      activityType: 'comment',
      body: 'see file',
      files: [file, file],
    });
    expect((await activity(id)).data.files).toEqual([
      {
        id: file,
        filename: 'notes.txt',
        size: 12,
        mime: 'text/plain',
        author: 'artie',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect((await fileInfo(world, file)).body.activityId).toBe(id);
  });

  it('refuses files the project does not have with 422, creating nothing', async () => {
    const other = await upload(world, t.root, 'elsewhere.txt', 'x', 'other');
    const res = await comment(world, t.artie, task(), {
      activityType: 'comment',
      body: 'bad files',
      files: [other, '0'.repeat(32)],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.loc)).toEqual([
      ['body', 'files', 0],
      ['body', 'files', 1],
    ]);
    expect((await fileInfo(world, other, 'other')).body.activityId).toBeNull();
  });

  it('reads mentions only from links to existing users and entities, not images, not the origin itself', async () => {
    const body = [
      `![pic](user:bea)`,
      `[ghost](user:nobody)`,
      `[gone](folder:${'0'.repeat(32)})`,
      `[self](task:${ids.modeling})`,
      `[lookdev](task:${ids.lookdev.replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, '$1-$2-$3-$4-$5')})`,
      `[broken](version:xyz)`,
    ].join(' ');
    const id = await commentOk(world, t.root, task(), body);
    const refs = await referencesOf(world, id);
    expect(refs).toContain(`mention:${ids.lookdev}`);
    expect(refs.filter((r) => r.startsWith('mention:'))).toEqual([`mention:${ids.lookdev}`]);
    expect(refs).toContain('watching:bea');
  });

  it('flags comments holding a task list', async () => {
    const id = await commentOk(world, t.bea, task(), 'To do:\n- [ ] model\n- [x] uv');
    expect((await activity(id)).data.hasChecklist).toBe(true);
  });

  it('takes tags as AYON does: any number, any text', async () => {
    const tags = ['', 't'.repeat(300), 'two words', ...Array.from({ length: 150 }, (_, i) => `tag${i}`)];
    const res = await comment(world, t.bea, task(), { activityType: 'comment', body: 'many tags', tags });
    expect(res.status).toBe(201);
    expect((await activity(res.body.id)).tags).toEqual(tags);
  });

  it('refuses a body longer than 2000 characters with 422', async () => {
    const res = await comment(world, t.bea, task(), 'x'.repeat(2001));
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'body']);
    expect((await comment(world, t.bea, task(), 'x'.repeat(2000))).status).toBe(201);
  });

  it('answers 422 for a bad type or id, and 400 for an unknown entity type segment as AYON does', async () => {
    expect((await comment(world, t.bea, task(), { activityType: 'gossip', body: 'x' })).status).toBe(422);
    const badId = await core.request('POST', '/api/projects/demo/tasks/not-an-id/activities', {
      token: t.bea,
      body: { activityType: 'comment', body: 'x' },
    });
    expect(badId.status).toBe(422);
    expect(badId.body.errors[0].loc).toEqual(['path', 'entity_id']);
    const badType = await core.request('POST', `/api/projects/demo/shots/${ids.sh010}/activities`, {
      token: t.bea,
      body: { activityType: 'comment', body: 'x' },
    });
    expect(badType.status).toBe(400);
    expect(badType.body.detail).toBe('shots is not a project entity type');
  });

  it('lets people create only comments; services create any type and do not start watching', async () => {
    const res = await comment(world, t.root, task(), { activityType: 'status.change', body: 'fake' });
    expect(res.status).toBe(403);
    const before = await watchers('task', ids.lookdev);
    const made = await core.request('POST', `/api/projects/demo/tasks/${ids.lookdev}/activities`, {
      apiKey: SERVICE_KEY,
      body: { activityType: 'reviewable', body: 'uploaded' },
    });
    expect(made.status).toBe(201);
    expect((await activity(made.body.id)).data.author).toBe('farm');
    expect(await watchers('task', ids.lookdev)).toEqual(before);
  });

  it('accepts the singular entity type in the path too', async () => {
    const res = await core.request('POST', `/api/projects/demo/folder/${ids.tree}/activities`, {
      token: t.artie,
      body: { activityType: 'comment', body: 'on the folder' },
    });
    expect(res.status).toBe(201);
    expect((await activity(res.body.id)).data.origin).toMatchObject({ type: 'folder', id: ids.tree });
  });

  it('answers 401 without login, 403 outside the project, 404 for what is missing or unreadable', async () => {
    expect((await comment(world, '', task(), 'x')).status).toBe(401);
    expect((await comment(world, t.olga, task(), 'x')).status).toBe(403);
    expect((await comment(world, t.boss, task(), 'x', 'nowhere')).status).toBe(404);
    expect((await comment(world, t.bea, { type: 'task', id: '0'.repeat(32) }, 'x')).status).toBe(404);
    // The task exists but in a project other than the path's.
    expect((await comment(world, t.boss, { type: 'folder', id: ids.elsewhere }, 'x')).status).toBe(404);
    // fred reads only under assets.
    expect((await comment(world, t.fred, { type: 'task', id: ids.animation }, 'x')).status).toBe(404);
    expect((await comment(world, t.fred, task(), 'x')).status).toBe(201);
  });
});

describe('editing', () => {
  let id: string;
  beforeAll(async () => {
    id = await commentOk(world, t.bea, task(), 'Checklist for [Artie](user:artie):\n- [ ] model\n- [ ] uv');
  });

  it('lets the author change the body; mentions follow the new body', async () => {
    const res = await patch(t.bea, id, {
      body: 'Checklist for [Root](user:root):\n- [ ] model\n- [ ] uv',
      tags: ['follow-up'],
    });
    expect(res.status).toBe(204);
    const row = await activity(id);
    expect(row.body).toContain('[Root](user:root)');
    expect(row.tags).toEqual(['follow-up']);
    expect(row.data.hasChecklist).toBe(true);
    const refs = await referencesOf(world, id);
    expect(refs).toContain('mention:root');
    // artie is no longer mentioned (and the relation gave way to the mention when the comment was made).
    expect(refs.some((r) => r.endsWith(':artie'))).toBe(false);
    const updated = (await eventsOf(world, 'activity.updated')).at(-1)!;
    expect(updated.summary).toMatchObject({ activity_id: id, activity_type: 'comment' });
    expect(updated.user_name).toBe('bea');
  });

  it('lets others tick and untick the checkboxes, nothing more', async () => {
    const before = (await activity(id)).body as string;
    const ticked = before.replace('- [ ] model', '- [x] model');
    expect((await patch(t.artie, id, { body: ticked, tags: ['hijack'], data: { x: 1 } })).status).toBe(204);
    let row = await activity(id);
    expect(row.body).toBe(ticked);
    expect(row.tags).toEqual(['follow-up']);
    expect(row.data.x).toBeUndefined();
    expect((await patch(t.artie, id, { body: before })).status).toBe(204);
    expect((await patch(t.artie, id, { body: ticked.replace('model', 'sculpt') })).status).toBe(403);
    expect((await patch(t.artie, id, { body: `${ticked}\n- [ ] more` })).status).toBe(403);
    // A manager is not an administrator: the same rule.
    expect((await patch(t.boss, id, { body: 'rewritten' })).status).toBe(403);
    row = await activity(id);
    expect(row.body).toBe(before);
  });

  it("lets an admin change anyone's activity", async () => {
    expect((await patch(t.root, id, { body: 'moderated', data: { note: 'edited by admin' } })).status).toBe(
      204,
    );
    const row = await activity(id);
    expect(row.body).toBe('moderated');
    expect(row.data).toMatchObject({ author: 'bea', note: 'edited by admin' });
    expect(row.data.hasChecklist).toBeUndefined();
    expect((await referencesOf(world, id)).some((r) => r.startsWith('mention:'))).toBe(false);
  });

  it('replaces or appends files, linking and unlinking them', async () => {
    const a = await upload(world, t.bea, 'a.txt');
    const b = await upload(world, t.bea, 'b.txt');
    expect((await patch(t.bea, id, { files: [a] })).status).toBe(204);
    expect((await patch(t.bea, id, { files: [b], append_files: true })).status).toBe(204);
    expect((await activity(id)).data.files.map((f: any) => f.filename)).toEqual(['a.txt', 'b.txt']);
    expect((await patch(t.bea, id, { files: [b] })).status).toBe(204);
    expect((await fileInfo(world, a)).body.activityId).toBeNull();
    expect((await fileInfo(world, b)).body.activityId).toBe(id);
    // Deleting the file takes it off the activity.
    expect((await core.request('DELETE', `/api/projects/demo/files/${b}`, { token: t.root })).status).toBe(
      204,
    );
    expect((await activity(id)).data.files).toEqual([]);
    expect((await patch(t.bea, id, { files: [] })).status).toBe(204);
    expect((await activity(id)).data.files).toBeUndefined();
  });

  it('answers 404, 403, 401 and 422 as for creating', async () => {
    expect((await patch(t.bea, '0'.repeat(32), { body: 'x' })).status).toBe(404);
    expect((await patch(t.olga, id, { body: 'x' })).status).toBe(403);
    expect((await patch('', id, { body: 'x' })).status).toBe(401);
    expect((await patch(t.bea, id, { body: 'x'.repeat(2001) })).status).toBe(422);
    const hidden = await commentOk(world, t.bea, { type: 'task', id: ids.animation }, 'shots only');
    expect((await patch(t.fred, hidden, { body: 'x' })).status).toBe(404);
  });
});

describe('deleting', () => {
  it('lets only the author or an admin delete, and lets its files go', async () => {
    const file = await upload(world, t.bea, 'gone.txt');
    const id = await commentOk(world, t.bea, task(), {
      activityType: 'comment',
      body: 'short lived',
      files: [file],
    });
    expect((await remove(t.artie, id)).status).toBe(403);
    expect((await remove(t.boss, id)).status).toBe(403);
    expect((await remove(t.olga, id)).status).toBe(403);
    expect((await remove(t.bea, id)).status).toBe(204);
    expect(await activity(id)).toBeUndefined();
    expect((await fileInfo(world, file)).body.activityId).toBeNull();
    expect(await referencesOf(world, id)).toEqual([]);
    expect((await remove(t.bea, id)).status).toBe(404);
    const deleted = (await eventsOf(world, 'activity.deleted')).at(-1)!;
    expect(deleted.summary).toMatchObject({ activity_id: id, activity_type: 'comment' });
    const other = await commentOk(world, t.artie, task(), 'moderate me');
    expect((await remove(t.root, other)).status).toBe(204);
  });
});

describe('entities that go', () => {
  it('take their activities along when deleted', async () => {
    const folder = await core.request('POST', '/api/projects/demo/folders', {
      token: t.root,
      body: { name: 'temp', folderType: 'Folder' },
    });
    const file = await upload(world, t.bea, 'folder.txt');
    const id = await commentOk(
      world,
      t.bea,
      { type: 'folder', id: folder.body.id },
      { activityType: 'comment', body: 'soon gone', files: [file] },
    );
    const mention = await commentOk(world, t.bea, task(), `see [temp](folder:${folder.body.id})`);
    expect(
      (await core.request('DELETE', `/api/projects/demo/folders/${folder.body.id}`, { token: t.root }))
        .status,
    ).toBe(204);
    expect(await activity(id)).toBeUndefined();
    expect((await fileInfo(world, file)).body.activityId).toBeNull();
    expect(await activity(mention)).toBeDefined();
    expect((await referencesOf(world, mention)).some((r) => r.includes(folder.body.id))).toBe(false);
  });
});
