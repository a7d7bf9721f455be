import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { sql } from 'kysely';
import { retentionDays } from '../src/retention.js';
import { HistoryStore } from '../src/store.js';

// Field history through the routes a studio's tools use: REST, /operations, and the history routes themselves.
// The access addon's seeded groups give the folder limits: fran is a freelancer in show (she reads only where she is
// assigned), artie an artist (reads everything in show), eve has no access to show.
let core: TestCore;
let boss: string;
let artie: string;
let fran: string;
let eve: string;
const P = '/api/projects/show';

const as =
  (token: string, headers: Record<string, string> = {}) =>
  (method: string, url: string, body?: unknown) =>
    core.request(method, url, { token, body, headers });
const create = async (plural: string, body: Record<string, unknown>) => {
  const res = await as(boss)('POST', `${P}/${plural}`, body);
  if (res.status !== 201) throw new Error(`create ${plural} failed: ${res.status} ${res.text}`);
  return res.body.id as string;
};
const history = async (token: string, path: string) => {
  const res = await as(token)('GET', `${P}/${path}`);
  if (res.status !== 200) throw new Error(`history failed: ${res.status} ${res.text}`);
  return res.body as { changes: any[]; hasMore: boolean };
};
const fieldsOf = (page: { changes: any[] }) => page.changes.map((c) => [c.field, c.oldValue, c.newValue]);

let shot: string;
let task: string;
let other: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['history', 'links', 'access', 'users'] });
  boss = await seedUser(core, 'boss', { isManager: true });
  artie = await seedUser(core, 'artie', { accessGroups: { show: ['artist'] } });
  fran = await seedUser(core, 'fran', { accessGroups: { show: ['freelancer'] } });
  eve = await seedUser(core, 'eve', {});
  expect((await as(boss)('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
  shot = await create('folders', { name: 'sh010', folderType: 'Shot', attrib: { frameStart: 1001 } });
  task = await create('tasks', {
    name: 'comp',
    taskType: 'Compositing',
    folderId: shot,
    assignees: ['fran'],
  });
  other = await create('folders', { name: 'sh020', folderType: 'Shot' });
});
afterAll(() => core.close());

describe('recording', () => {
  it('keeps one entry per changed field, attributes one per name, with who, how, from where and when', async () => {
    const patch = await as(artie, { 'x-sender': 'desk-7', 'user-agent': 'nuke/15.1' })(
      'PATCH',
      `${P}/folders/${shot}`,
      { label: 'Shot 10', status: 'In progress', attrib: { frameStart: 1009, frameEnd: 1100 } },
    );
    expect(patch.status).toBe(204);
    const page = await history(artie, `folders/${shot}/history`);
    expect(fieldsOf(page).slice(0, 4)).toEqual(
      expect.arrayContaining([
        ['label', null, 'Shot 10'],
        ['status', 'Not ready', 'In progress'],
        ['attrib.frameStart', 1001, 1009],
        ['attrib.frameEnd', null, 1100],
      ]),
    );
    expect(page.changes[0]).toMatchObject({
      entityType: 'folder',
      entityId: shot,
      user: 'artie',
      via: 'session',
      sender: 'desk-7',
      senderType: 'api',
      client: 'nuke/15.1',
    });
    expect(Date.now() - Date.parse(page.changes[0].changedAt)).toBeLessThan(60_000);
    // The creation is the oldest entry; nothing unchanged was recorded.
    expect(fieldsOf(page).slice(4)).toEqual([['created', null, 'sh010']]);
  });

  it('never coalesces: two edits of the same field give two entries, newest first', async () => {
    for (const status of ['Pending review', 'Approved'])
      expect((await as(boss)('PATCH', `${P}/tasks/${task}`, { status })).status).toBe(204);
    const page = await history(boss, `tasks/${task}/history?field=status`);
    expect(fieldsOf(page)).toEqual([
      ['status', 'Pending review', 'Approved'],
      ['status', 'Not ready', 'Pending review'],
    ]);
  });

  it('records renames, moves, assignees and tags sent through /operations', async () => {
    const res = await as(boss)('POST', `${P}/operations`, {
      operations: [
        { type: 'update', entityType: 'folder', entityId: other, data: { name: 'sh030', parentId: shot } },
        {
          type: 'update',
          entityType: 'task',
          entityId: task,
          data: { assignees: ['fran', 'artie'], tags: ['hot'] },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(fieldsOf(await history(boss, `folders/${other}/history`)).slice(0, 2)).toEqual(
      expect.arrayContaining([
        ['name', 'sh020', 'sh030'],
        ['parentId', null, shot],
      ]),
    );
    expect(fieldsOf(await history(boss, `tasks/${task}/history?field=assignees&field=tags`))).toEqual(
      expect.arrayContaining([
        ['assignees', ['fran'], ['fran', 'artie']],
        ['tags', [], ['hot']],
      ]),
    );
  });

  it('records nothing for a batch that rolls back', async () => {
    const before = (await history(boss, `folders/${shot}/history`)).changes.length;
    const res = await as(boss)('POST', `${P}/operations`, {
      operations: [
        { type: 'update', entityType: 'folder', entityId: shot, data: { label: 'never' } },
        { type: 'update', entityType: 'folder', entityId: '0'.repeat(32), data: { label: 'missing' } },
      ],
    });
    expect(res.body.success).toBe(false);
    expect((await history(boss, `folders/${shot}/history`)).changes.length).toBe(before);
  });

  it('records a link made and removed in the history of both its ends', async () => {
    const made = await as(boss)('POST', `${P}/links`, {
      input: shot,
      output: other,
      linkType: 'breakdown|folder|folder',
    });
    expect(made.status).toBe(200);
    const link = { id: made.body.id, linkType: 'breakdown|folder|folder' };
    expect((await as(boss)('DELETE', `${P}/links/${made.body.id}`)).status).toBe(204);
    expect(fieldsOf(await history(boss, `folders/${shot}/history?field=links`))).toEqual([
      ['links', { ...link, direction: 'out', entityType: 'folder', entityId: other }, null],
      ['links', null, { ...link, direction: 'out', entityType: 'folder', entityId: other }],
    ]);
    expect(fieldsOf(await history(boss, `folders/${other}/history?field=links`))).toEqual([
      ['links', { ...link, direction: 'in', entityType: 'folder', entityId: shot }, null],
      ['links', null, { ...link, direction: 'in', entityType: 'folder', entityId: shot }],
    ]);
  });

  it("keeps a deleted entity's history and its deletion, for managers", async () => {
    const doomed = await create('folders', { name: 'doomed', folderType: 'Shot' });
    expect((await as(boss)('PATCH', `${P}/folders/${doomed}`, { label: 'Doomed' })).status).toBe(204);
    expect((await as(boss)('DELETE', `${P}/folders/${doomed}`)).status).toBe(204);
    expect(fieldsOf(await history(boss, `folders/${doomed}/history`))).toEqual([
      ['deleted', 'doomed', null],
      ['label', null, 'Doomed'],
      ['created', null, 'doomed'],
    ]);
    expect((await as(artie)('GET', `${P}/folders/${doomed}/history`)).status).toBe(404);
    expect((await as(boss)('GET', `${P}/folders/${'0'.repeat(32)}/history`)).status).toBe(404);
  });
});

describe('reading', () => {
  it('pages with the id of the last entry read', async () => {
    for (let n = 1; n <= 5; n++)
      expect((await as(boss)('PATCH', `${P}/folders/${other}`, { attrib: { handleStart: n } })).status).toBe(
        204,
      );
    const first = await history(boss, `folders/${other}/history?field=attrib.handleStart&limit=3`);
    expect(first.changes.map((c) => c.newValue)).toEqual([5, 4, 3]);
    expect(first.hasMore).toBe(true);
    const next = await history(
      boss,
      `folders/${other}/history?field=attrib.handleStart&limit=3&before=${first.changes[2].id}`,
    );
    expect(next.changes.map((c) => c.newValue)).toEqual([2, 1]);
    expect(next.hasMore).toBe(false);
  });

  it('is for those who may read the entity', async () => {
    // fran reads only where she is assigned: the task, not the other shot.
    expect((await as(fran)('GET', `${P}/tasks/${task}/history`)).status).toBe(200);
    expect((await as(fran)('GET', `${P}/folders/${other}/history`)).status).toBe(404);
    expect((await as(eve)('GET', `${P}/folders/${shot}/history`)).status).toBe(403);
    const bad = await as(boss)('GET', `${P}/folders/${shot}/history?limit=0`);
    expect(bad.status).toBe(422);
  });

  it('answers the last change of each field for a page of entities, leaving out what the caller may not read', async () => {
    const res = await as(fran)('POST', `${P}/history/latest`, {
      entityType: 'folder',
      entityIds: [shot, other],
      fields: ['label', 'attrib.handleStart'],
    });
    expect(res.status).toBe(200);
    // fran sees the shot (its task is hers), not sh030.
    expect(res.body.changes.map((c: any) => [c.entityId, c.field, c.newValue])).toEqual([
      [shot, 'label', 'Shot 10'],
    ]);
    const all = await as(boss)('POST', `${P}/history/latest`, { entityType: 'folder', entityIds: [other] });
    const handles = all.body.changes.find((c: any) => c.field === 'attrib.handleStart');
    expect(handles).toMatchObject({ oldValue: 4, newValue: 5, user: 'boss' });
    expect(all.body.changes.filter((c: any) => c.field === 'attrib.handleStart')).toHaveLength(1);
  });

  it('exports the whole project, oldest first, as JSON lines or CSV, for managers', async () => {
    const lines = await as(boss)(
      'GET',
      `${P}/history/export?format=jsonl&entityType=folder&field=attrib.handleStart`,
    );
    expect(lines.status).toBe(200);
    expect(lines.headers['content-type']).toContain('application/x-ndjson');
    const rows = lines.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows.map((row) => row.newValue)).toEqual([1, 2, 3, 4, 5]);

    const csv = await as(boss)('GET', `${P}/history/export?format=csv&field=label`);
    expect(csv.status).toBe(200);
    const [header, ...cells] = csv.text.trim().split('\r\n');
    expect(header).toBe(
      'id,changedAt,entityType,entityId,field,oldValue,newValue,user,via,sender,senderType,client',
    );
    expect(cells.map((line) => line.split(',').slice(4, 8))).toEqual([
      ['label', '', 'Shot 10', 'artie'],
      ['label', '', 'Doomed', 'boss'],
    ]);
    expect((await as(artie)('GET', `${P}/history/export`)).status).toBe(403);
  });
});

describe('retention', () => {
  it('keeps history for good unless HISTORY_RETENTION_DAYS says otherwise, and refuses what is not days', () => {
    expect(retentionDays(undefined)).toBeNull();
    expect(retentionDays('0')).toBeNull();
    expect(retentionDays('90')).toBe(90);
    expect(() => retentionDays('2w')).toThrow(/whole number of days/);
  });

  it('removes only what changed before the cutoff, in every project', async () => {
    const store = new HistoryStore(core.db, (name) => `project_${name}`);
    const table = sql.table('project_show.field_history');
    const total = async () =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${table}`.execute(core.db)).rows[0]!.n);
    const before = await total();
    await sql`UPDATE ${table} SET changed_at = now() - interval '40 days' WHERE field = 'label'`.execute(
      core.db,
    );
    const labels = (await history(boss, `folders/${shot}/history?field=label`)).changes.length;
    expect(labels).toBeGreaterThan(0);
    expect(await store.prune(new Date(Date.now() - 30 * 86_400_000))).toBeGreaterThanOrEqual(labels);
    expect((await history(boss, `folders/${shot}/history?field=label`)).changes).toEqual([]);
    expect(await total()).toBeLessThan(before);
    expect((await history(boss, `folders/${shot}/history?field=status`)).changes.length).toBeGreaterThan(0);
  });
});
