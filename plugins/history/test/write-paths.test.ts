import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// WRITES writes (default 10,000) of folders and tasks through every write path a studio uses: single REST
// requests, /operations batches (committed, rolled back, partly failing), a service's API key, background
// operations, the assign route, thumbnails (another addon's code), creations, moves, renames and deletes. The test
// keeps its own model of every entity and of the history each committed write should leave: one entry per changed
// field, in order, none for what was rolled back or changed nothing. The export must match it exactly.

const WRITES = Number(process.env.HISTORY_WRITES ?? 10_000);
const P = '/api/projects/show';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

type Values = Record<string, unknown>;
interface Modelled {
  type: 'folder' | 'task';
  values: Values;
  attrib: Values;
}
interface Expected {
  entityId: string;
  field: string;
  newValue: unknown;
  via: string;
}

let core: TestCore;
let boss: string;
const serviceKey = 'a'.repeat(32);
const model = new Map<string, Modelled>();
const expected: Expected[] = [];
let parents: [string, string];
let statuses: string[];
let counter = 0;
let seed = 42;

// A fixed sequence, so that a failure is the same failure on every run.
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const call = async (method: string, url: string, body?: unknown, auth: 'boss' | 'service' = 'boss') => {
  const res = await core.request(
    method,
    url,
    auth === 'boss' ? { token: boss, body } : { apiKey: serviceKey, body },
  );
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
};

/** Some fields to write to an entity, sometimes the values it has already (which changes nothing). */
function someChange(id: string): Values {
  const entity = model.get(id)!;
  const data: Values = {};
  const kinds = [
    'status',
    'label',
    'tags',
    'attrib',
    'active',
    'name',
    entity.type === 'task' ? 'assignees' : 'parentId',
  ];
  for (const kind of new Set([pick(kinds), pick(kinds)])) {
    if (kind === 'status') data.status = pick(statuses);
    if (kind === 'label') data.label = pick(['Hero', 'Background', null]);
    if (kind === 'tags') data.tags = pick([[], ['hot'], ['hot', 'rush']]);
    if (kind === 'active') data.active = pick([true, false]);
    if (kind === 'name') data.name = `${entity.type[0]}${++counter}`;
    if (kind === 'assignees') data.assignees = pick([[], ['boss'], ['boss', 'farm']]);
    if (kind === 'parentId') data.parentId = pick(parents);
    if (kind === 'attrib') data.attrib = { frameStart: pick([1001, 1002, null]), fps: pick([24, 25]) };
  }
  return data;
}

/** What a committed write of data to id leaves in history, and the entity as it is after it. */
function committed(id: string, data: Values, via: string) {
  const entity = model.get(id)!;
  for (const [field, value] of Object.entries(data)) {
    if (field !== 'attrib') {
      if (!same(entity.values[field], value)) expected.push({ entityId: id, field, newValue: value, via });
      entity.values[field] = value;
      continue;
    }
    for (const [name, attribute] of Object.entries(value as Values)) {
      if (same(entity.attrib[name], attribute)) continue;
      expected.push({ entityId: id, field: `attrib.${name}`, newValue: attribute, via });
      if (attribute === null) delete entity.attrib[name];
      else entity.attrib[name] = attribute;
    }
  }
}

async function createFolder(parentId: string): Promise<string> {
  const name = `f${++counter}`;
  const { id } = await call('POST', `${P}/folders`, { name, folderType: 'Shot', parentId });
  model.set(id, {
    type: 'folder',
    values: { name, parentId, status: statuses[0], label: null, tags: [], active: true },
    attrib: {},
  });
  expected.push({ entityId: id, field: 'created', newValue: name, via: 'session' });
  return id;
}

async function createTask(folderId: string): Promise<string> {
  const name = `t${++counter}`;
  const { id } = await call('POST', `${P}/tasks`, { name, taskType: 'Compositing', folderId });
  model.set(id, {
    type: 'task',
    values: { name, status: statuses[0], label: null, tags: [], active: true, assignees: [] },
    attrib: {},
  });
  expected.push({ entityId: id, field: 'created', newValue: name, via: 'session' });
  return id;
}

const update = (id: string, data: Values): Values => ({
  type: 'update',
  entityType: model.get(id)!.type,
  entityId: id,
  data,
});
const missing = { type: 'update', entityType: 'folder', entityId: '0'.repeat(32), data: { label: 'x' } };

beforeAll(async () => {
  core = await bootTestCore({ addons: ['history', 'thumbnails', 'users'] });
  boss = await seedUser(core, 'boss', { isManager: true });
  const admin = await seedUser(core, 'admin', { isAdmin: true });
  const farm = { apiKey: serviceKey, data: { isService: true } };
  expect((await core.request('PUT', '/api/users/farm', { token: admin, body: farm })).status).toBe(204);
  await call('POST', '/api/projects', { name: 'show', code: 'sh' });
  statuses = ((await call('GET', P)).statuses as { name: string }[]).map((s) => s.name);
  parents = [await createFolder(null as never), await createFolder(null as never)];
  // The parents only hold the others: they are never changed, so moves never make a cycle.
  for (const parent of parents) model.delete(parent);
  for (let i = 0; i < 40; i++) await createTask(await createFolder(pick(parents)));
});
afterAll(() => core.close());

describe('every write path', () => {
  it(`records exactly one entry per changed field over ${WRITES} writes`, async () => {
    let writes = 0;
    const ids = () => [...model.keys()];
    // A request changes an entity at most once (AYON refuses more): count distinct entities, in a random order.
    const changes = (count: number) =>
      ids()
        .map((id) => [random(), id] as const)
        .sort(([a], [b]) => a - b)
        .slice(0, count)
        .map(([, id]) => [id, someChange(id)] as const);
    while (writes < WRITES) {
      const path = pick([
        'rest',
        'batch',
        'batch',
        'rollback',
        'canFail',
        'service',
        'background',
        'assign',
        'thumbnail',
        'lifecycle',
      ]);
      if (path === 'rest') {
        const [[id, data]] = changes(1);
        await call('PATCH', `${P}/${model.get(id)!.type}s/${id}`, data);
        committed(id, data, 'session');
        writes += 1;
      } else if (path === 'batch' || path === 'service') {
        const batch = changes(50);
        const answer = await call(
          'POST',
          `${P}/operations`,
          { operations: batch.map(([id, data]) => update(id, data)) },
          path === 'service' ? 'service' : 'boss',
        );
        expect(answer.success).toBe(true);
        for (const [id, data] of batch) committed(id, data, path === 'service' ? 'service' : 'session');
        writes += batch.length;
      } else if (path === 'rollback') {
        const batch = changes(20);
        const answer = await call('POST', `${P}/operations`, {
          operations: [...batch.map(([id, data]) => update(id, data)), missing],
        });
        expect(answer.success).toBe(false);
        writes += batch.length + 1;
      } else if (path === 'canFail') {
        const batch = changes(20);
        const operations = batch.map(([id, data]) => update(id, data));
        operations.splice(10, 0, missing);
        const answer = await call('POST', `${P}/operations`, { operations, canFail: true });
        expect(answer.operations.filter((op: { success: boolean }) => !op.success)).toHaveLength(1);
        for (const [id, data] of batch) committed(id, data, 'session');
        writes += operations.length;
      } else if (path === 'background') {
        const batch = changes(20);
        const { id: job } = await call('POST', `${P}/operations/background`, {
          operations: batch.map(([id, data]) => update(id, data)),
        });
        for (
          let tries = 0;
          (await call('GET', `${P}/operations/background/${job}`)).status !== 'completed';
          tries++
        ) {
          if (tries > 500) throw new Error('background operations did not complete');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        for (const [id, data] of batch) committed(id, data, 'session');
        writes += batch.length;
      } else if (path === 'assign') {
        const task = pick(ids().filter((id) => model.get(id)!.type === 'task'));
        const users = pick([['boss'], ['farm'], ['boss', 'farm']]);
        const mode = pick(['add', 'remove', 'set'] as const);
        await call('POST', `${P}/tasks/${task}/assign`, { users, mode });
        const before = model.get(task)!.values.assignees as string[];
        const after =
          mode === 'set'
            ? users
            : mode === 'add'
              ? [...before, ...users.filter((u) => !before.includes(u))]
              : before.filter((u) => !users.includes(u));
        committed(task, { assignees: after }, 'session');
        writes += 1;
      } else if (path === 'thumbnail') {
        const folder = pick(ids().filter((id) => model.get(id)!.type === 'folder'));
        const res = await core.request('POST', `${P}/folders/${folder}/thumbnail`, {
          token: boss,
          body: PNG,
          headers: { 'content-type': 'image/png' },
        });
        expect(res.status).toBe(201);
        // The thumbnails addon keeps the image's hash in the entity's data as well.
        const { data } = await call('GET', `${P}/folders/${folder}`);
        committed(folder, { thumbnailId: res.body.id }, 'session');
        expected.push({
          entityId: folder,
          field: 'data.thumbnailHash',
          newValue: data.thumbnailHash,
          via: 'session',
        });
        writes += 1;
      } else {
        // A folder with a task comes and goes: created, changed, then deleted with its task.
        const folder = await createFolder(pick(parents));
        const task = await createTask(folder);
        const data = someChange(task);
        await call('PATCH', `${P}/tasks/${task}`, data);
        committed(task, data, 'session');
        await call('DELETE', `${P}/folders/${folder}`);
        expected.push({ entityId: folder, field: 'deleted', newValue: null, via: 'session' });
        model.delete(folder);
        model.delete(task);
        writes += 4;
      }
    }

    const exported = await core.request('GET', `${P}/history/export?format=jsonl`, { token: boss });
    expect(exported.status).toBe(200);
    const recorded = exported.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((entry) => !parents.includes(entry.entityId))
      .map(({ entityId, field, newValue, via }) => ({ entityId, field, newValue, via }));
    // Per entity and field, in the order they were made.
    const key = (entry: Expected) => `${entry.entityId} ${entry.field}`;
    const group = (entries: Expected[]) => {
      const groups = new Map<string, unknown[]>();
      for (const entry of entries)
        groups.set(key(entry), [...(groups.get(key(entry)) ?? []), [entry.newValue, entry.via]]);
      return Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)));
    };
    const ours = expected.filter((entry) => !parents.includes(entry.entityId));
    expect(recorded.length).toBe(ours.length);
    expect(group(recorded)).toEqual(group(ours));
  });
});
