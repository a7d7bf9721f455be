import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, freePort, type TestCore } from '@pipewright/core/testing';
import {
  ApiError,
  ClientError,
  ConflictError,
  createClient,
  ForbiddenError,
  GraphQLRequestError,
  NetworkError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
  type EventSubscription,
  type LiveEvent,
  type PipewrightClient,
} from '@pipewright/sdk/client';
import { collector } from './live-events.js';

// The typed client against a real server listening on a port: every call goes through fetch and the network,
// exactly as an integrator's script would make it.

const PASSWORD = 'a long enough password 42';
const PROJECT = 'sdkdemo';

let core: TestCore;
let baseUrl: string;
let admin: PipewrightClient;
const subscriptions: EventSubscription[] = [];

beforeAll(async () => {
  core = await bootTestCore({
    addons: ['onboarding', 'users', 'projects', 'entities', 'graphql', 'events', 'websocket'],
  });
  baseUrl = (await core.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  admin = createClient({ baseUrl });
  // The first administrator, created the way a fresh server asks for it.
  const created = await admin.POST('/api/onboarding/initialize', {
    body: { adminName: 'admin', adminPassword: PASSWORD },
  });
  expect(created.token).toMatch(/^[0-9a-f]{64}$/);
  await admin.login('admin', PASSWORD);
  await admin.POST('/api/projects', { body: { name: PROJECT, code: 'sdk' } });
});

afterAll(async () => {
  for (const subscription of subscriptions) await subscription.close();
  await core?.close();
});

const inProject = { params: { path: { project_name: PROJECT } } };

describe('logging in', () => {
  it('logs in by password, sends the session token, and logs out so the token stops working', async () => {
    const api = createClient({ baseUrl });
    const answer = await api.login('ADMIN', PASSWORD);
    expect(answer).toEqual({
      detail: expect.stringMatching(/^Logged in as /),
      error: null,
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      user: expect.objectContaining({ name: 'admin' }),
      redirectUrl: null,
    });
    expect(api.token).toBe(answer.token);
    expect((await api.GET('/api/users/me')).name).toBe('admin');

    await api.logout();
    expect(api.token).toBeNull();
    const stale = createClient({ baseUrl, token: answer.token });
    await expect(stale.GET('/api/users/me')).rejects.toBeInstanceOf(UnauthorizedError);
    // Logging out twice is harmless.
    await stale.logout();
    expect(stale.token).toBeNull();
  });

  it('refuses a wrong password with a 401 that carries the server detail', async () => {
    const api = createClient({ baseUrl });
    const error = await api.login('admin', 'not the password').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      code: 401,
      detail: 'Invalid user name or password',
      problems: [],
    });
    expect((error as Error).message).toBe('POST /api/auth/login answered 401: Invalid user name or password');
    expect(api.token).toBeNull();
  });

  it('uses a token given up front', async () => {
    const api = createClient({ baseUrl, token: admin.token! });
    const me = await api.GET('/api/users/me');
    expect(me).toMatchObject({ name: 'admin', data: expect.objectContaining({ isAdmin: true }) });
  });

  it("uses a service user's API key in x-api-key", async () => {
    await admin.PUT('/api/users/{user_name}', {
      params: { path: { user_name: 'farm' } },
      body: { data: { isService: true } },
    });
    const { key } = await admin.POST('/api/users/{user_name}/apikeys', {
      params: { path: { user_name: 'farm' } },
      body: { label: 'sdk tests' },
    });
    const service = createClient({ baseUrl, apiKey: key });
    expect(service.token).toBeNull();
    expect((await service.GET('/api/users/me')).name).toBe('farm');
    const wrong = createClient({ baseUrl, apiKey: 'x'.repeat(40) });
    await expect(wrong.GET('/api/users/me')).rejects.toMatchObject({ status: 401 });
  });

  it('answers 401 to a call without credentials', async () => {
    const error = await createClient({ baseUrl })
      .GET('/api/users/me')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, method: 'GET', url: `${baseUrl}/api/users/me` });
  });
});

describe('typed REST calls', () => {
  it('creates, reads and changes a project', async () => {
    const created = await admin.POST('/api/projects', { body: { name: 'roundtrip', code: 'rt' } });
    expect(created).toEqual({ name: 'roundtrip' });
    const before = await admin.GET('/api/projects/{project_name}', {
      params: { path: { project_name: 'roundtrip' } },
    });
    expect(before).toMatchObject({ name: 'roundtrip', code: 'rt', library: false, active: true });

    const patched = await admin.PATCH('/api/projects/{project_name}', {
      params: { path: { project_name: 'roundtrip' } },
      body: { attrib: { fps: 48 } },
    });
    expect(patched).toBeUndefined();
    const after = await admin.GET('/api/projects/{project_name}', {
      params: { path: { project_name: 'roundtrip' } },
    });
    expect(after.attrib).toMatchObject({ fps: 48 });

    const listed = await admin.GET('/api/projects', { params: { query: { name: 'round%' } } });
    expect(listed.projects.map((p) => p.name)).toEqual(['roundtrip']);
  });

  it('creates folders and lists them with their paths, defaults left to the server', async () => {
    const { id: parent } = await admin.POST('/api/projects/{project_name}/folders', {
      ...inProject,
      body: { name: 'seq010', folderType: 'Folder' },
    });
    const { id: child } = await admin.POST('/api/projects/{project_name}/folders', {
      ...inProject,
      body: { name: 'sh010', folderType: 'Folder', parentId: parent },
    });
    const one = await admin.GET('/api/projects/{project_name}/folders/{folder_id}', {
      params: { path: { project_name: PROJECT, folder_id: child } },
    });
    expect(one).toMatchObject({ id: child, name: 'sh010', path: '/seq010/sh010', parentId: parent });
    // attrib (default false) is left out of the query: the server fills it in.
    const { folders } = await admin.GET('/api/projects/{project_name}/folders', inProject);
    expect(folders.find((f) => f.id === child)).toMatchObject({ path: '/seq010/sh010', parents: ['seq010'] });
  });

  it('surfaces a 422 as ValidationError with the problem list', async () => {
    const error = await admin
      .POST('/api/projects', { body: { name: 'not a valid name!', code: 'x' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const validation = error as ValidationError;
    expect(validation.status).toBe(422);
    expect(validation.problems.length).toBeGreaterThanOrEqual(1);
    expect(validation.problems).toContainEqual({
      loc: ['body', 'name'],
      msg: expect.any(String),
      type: 'pattern',
    });
    expect(validation.detail).toMatch(/^Validation error: body\.name/);
  });

  it('surfaces a 404 as NotFoundError', async () => {
    const error = await admin
      .GET('/api/projects/{project_name}', { params: { path: { project_name: 'nosuchproject' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 404, detail: expect.stringContaining('nosuchproject') });
  });

  it('surfaces a 409 as ConflictError', async () => {
    const error = await admin
      .POST('/api/projects', { body: { name: PROJECT, code: 'other' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 409 });
  });

  it('surfaces a 403 as ForbiddenError', async () => {
    await admin.PUT('/api/users/{user_name}', {
      params: { path: { user_name: 'artist' } },
      body: { password: PASSWORD },
    });
    const artist = createClient({ baseUrl });
    await artist.login('artist', PASSWORD);
    const error = await artist
      .POST('/api/projects', { body: { name: 'mine', code: 'mn' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403 });
  });

  it('surfaces an unreachable server as NetworkError', async () => {
    const port = await freePort();
    const error = await createClient({ baseUrl: `http://127.0.0.1:${port}` })
      .GET('/api/info')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(
      new RegExp(`^GET http://127.0.0.1:${port}/api/info could not reach`),
    );
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('lets an abort through as the AbortError the caller asked for', async () => {
    const error = await admin.GET('/api/users/me', { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
  });
});

describe('GraphQL', () => {
  const FOLDERS = 23;

  beforeAll(async () => {
    const batch = admin.operations(PROJECT);
    const parent = batch.create('folder', { name: 'crowd', folderType: 'Folder' });
    for (let i = 0; i < FOLDERS; i++)
      batch.create('folder', {
        name: `extra${String(i).padStart(2, '0')}`,
        folderType: 'Folder',
        parentId: parent,
      });
    expect((await batch.commit()).success).toBe(true);
  });

  it('answers data for a query', async () => {
    const data = await admin.graphql<{ project: { name: string; code: string } }>(
      'query($name: String!) { project(name: $name) { name code } }',
      { name: PROJECT },
    );
    expect(data).toEqual({ project: { name: PROJECT, code: 'sdk' } });
  });

  it("throws GraphQLRequestError with the server's messages", async () => {
    const error = await admin
      .graphql('{ project(name: "sdkdemo") { nosuchfield } }')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect((error as GraphQLRequestError).messages).toEqual([expect.stringContaining('nosuchfield')]);
    expect((error as GraphQLRequestError).status).toBe(400);

    const resolverError = await admin
      .graphql('{ project(name: "sdkdemo") { folders(first: -1) { edges { node { id } } } } }')
      .catch((e: unknown) => e);
    expect(resolverError).toBeInstanceOf(GraphQLRequestError);
    expect((resolverError as GraphQLRequestError).messages).toEqual(['first must be between 0 and 10000']);
  });

  it('answers 401 without credentials as UnauthorizedError, not as a GraphQL error', async () => {
    const error = await createClient({ baseUrl })
      .graphql('{ me { name } }')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, method: 'POST', url: `${baseUrl}/graphql` });
  });

  it('pages through a connection, several pages of folders, as one stream of nodes', async () => {
    let graphqlCalls = 0;
    const counting = createClient({
      baseUrl,
      token: admin.token!,
      fetch: (request) => {
        if (new URL(request.url).pathname === '/graphql') graphqlCalls += 1;
        return fetch(request);
      },
    });
    const query = `query($project: String!, $parent: String!, $after: String) {
      project(name: $project) {
        folders(first: 5, after: $after, parentIds: [$parent]) {
          edges { node { id name } }
          pageInfo { hasNextPage endCursor }
        }
      }
    }`;
    const { folders } = await admin.GET('/api/projects/{project_name}/folders', inProject);
    const parent = folders.find((f) => f.name === 'crowd')!.id;
    const names: string[] = [];
    for await (const node of counting.paginate<{ id: string; name: string }>(
      query,
      { project: PROJECT, parent },
      'project.folders',
    ))
      names.push(node.name);
    expect(names.sort()).toEqual(
      Array.from({ length: FOLDERS }, (_, i) => `extra${String(i).padStart(2, '0')}`),
    );
    // 23 folders at 5 a page: 5 pages.
    expect(graphqlCalls).toBe(5);
  });

  it('ends at once when the connection parent is null', async () => {
    const query = `query($after: String) { project(name: "${PROJECT}") { folder(id: "${'f'.repeat(32)}") {
      tasks(after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } } } }`;
    const nodes = [];
    for await (const node of admin.paginate(query, {}, ['project', 'folder', 'tasks'])) nodes.push(node);
    expect(nodes).toEqual([]);
  });
});

describe('operations', () => {
  it('with canFail, reports each result and keeps what succeeded', async () => {
    const batch = admin.operations(PROJECT);
    const folder = batch.create('folder', { name: 'ops_a', folderType: 'Folder' });
    const task = batch.create('task', { name: 'anim', taskType: 'Animation', folderId: folder });
    const duplicate = batch.create('folder', { name: 'ops_a', folderType: 'Folder' });
    const missing = 'f'.repeat(32);
    const update = batch.update('folder', missing, { label: 'nothing here' });
    const rename = batch.update('folder', folder, { label: 'Ops A' });
    expect(batch.pending).toHaveLength(5);

    const answer = await batch.commit({ canFail: true });
    expect(answer.success).toBe(false);
    expect(batch.pending).toHaveLength(0);
    expect(answer.operations.map((r) => [r.type, r.entityType, r.success, r.status])).toEqual([
      ['create', 'folder', true, 201],
      ['create', 'task', true, 201],
      ['create', 'folder', false, 409],
      ['update', 'folder', false, 404],
      ['update', 'folder', true, 204],
    ]);
    // The ids create() handed out are the ones the server used.
    expect(answer.operations[0].entityId).toBe(folder);
    expect(answer.operations[1].entityId).toBe(task);
    expect(answer.operations[2]).toMatchObject({ entityId: duplicate, errorCode: 'unique-violation' });
    expect(answer.operations[3]).toMatchObject({ id: update, entityId: missing, detail: expect.any(String) });
    expect(answer.operations[4]).toMatchObject({ id: rename, errorCode: null, detail: null });

    const saved = await admin.GET('/api/projects/{project_name}/folders/{folder_id}', {
      params: { path: { project_name: PROJECT, folder_id: folder } },
    });
    expect(saved).toMatchObject({ name: 'ops_a', label: 'Ops A' });
    const savedTask = await admin.GET('/api/projects/{project_name}/tasks/{task_id}', {
      params: { path: { project_name: PROJECT, task_id: task } },
    });
    expect(savedTask).toMatchObject({ folderId: folder, name: 'anim' });
  });

  it('without canFail, writes nothing when one operation fails', async () => {
    const batch = admin.operations(PROJECT);
    const folder = batch.create('folder', { name: 'ops_b', folderType: 'Folder' });
    batch.create('folder', { name: 'ops_b', folderType: 'Folder' });
    const answer = await batch.commit();
    expect(answer.success).toBe(false);
    expect(answer.operations.at(-1)).toMatchObject({
      success: false,
      status: 409,
      errorCode: 'unique-violation',
    });
    await expect(
      admin.GET('/api/projects/{project_name}/folders/{folder_id}', {
        params: { path: { project_name: PROJECT, folder_id: folder } },
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('deletes, and keeps the queue when the request itself is refused', async () => {
    const setup = admin.operations(PROJECT);
    const folder = setup.create('folder', { name: 'ops_c', folderType: 'Folder' });
    expect((await setup.commit()).success).toBe(true);

    const refused = createClient({ baseUrl }).operations(PROJECT);
    refused.delete('folder', folder);
    await expect(refused.commit()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(refused.pending).toHaveLength(1);

    const batch = admin.operations(PROJECT);
    batch.delete('folder', folder);
    const answer = await batch.commit();
    expect(answer).toMatchObject({
      success: true,
      operations: [{ type: 'delete', entityId: folder, status: 204 }],
    });
    await expect(
      admin.GET('/api/projects/{project_name}/folders/{folder_id}', {
        params: { path: { project_name: PROJECT, folder_id: folder } },
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await admin.operations(PROJECT).commit()).toEqual({ operations: [], success: true });
  });

  it('runs a large batch in the background, reporting progress until the results are in', async () => {
    const batch = admin.operations(PROJECT);
    const parent = batch.create('folder', { name: 'ops_bg', folderType: 'Folder' });
    for (let i = 0; i < 300; i++)
      batch.create('folder', { name: `shot_${i}`, folderType: 'Shot', parentId: parent });
    const progress: number[] = [];
    const answer = await batch.commit({ background: true, onProgress: (percent) => progress.push(percent) });
    expect(answer.success).toBe(true);
    expect(answer.operations).toHaveLength(301);
    expect(progress.at(-1)).toBe(100);
    // Progress only goes forward.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const children = await admin.GET('/api/projects/{project_name}/folders', {
      params: { path: { project_name: PROJECT } },
    });
    expect(children.folders.filter((f: { parentId?: string | null }) => f.parentId === parent)).toHaveLength(
      300,
    );
  });
});

describe('live events', () => {
  it('delivers an event posted with POST /api/events to the handler, without its payload', async () => {
    const received = collector<LiveEvent>();
    const subscription = admin.subscribe({ topics: ['sdk.'], onEvent: received.add });
    subscriptions.push(subscription);
    await subscription.ready;
    expect(subscription.connected).toBe(true);

    const { id } = await admin.POST('/api/events', {
      body: { topic: 'sdk.test.ping', summary: { n: 1 }, payload: { secret: 'x' }, description: 'ping' },
    });
    await admin.POST('/api/events', { body: { topic: 'other.topic' } });
    const event = await received.next((e) => e.id === id);
    expect(event).toMatchObject({
      topic: 'sdk.test.ping',
      user: 'admin',
      summary: { n: 1 },
      description: 'ping',
      status: 'finished',
    });
    expect(event).not.toHaveProperty('payload');
    expect(received.items.map((e) => e.topic)).not.toContain('other.topic');
  });

  it('authorises the socket with an API key (x-api-key on the upgrade request)', async () => {
    const { key } = await admin.POST('/api/users/{user_name}/apikeys', {
      params: { path: { user_name: 'farm' } },
      body: { label: 'events' },
    });
    const received = collector<LiveEvent>();
    const subscription = createClient({ baseUrl, apiKey: key }).subscribe({
      topics: ['sdk.key'],
      onEvent: received.add,
    });
    subscriptions.push(subscription);
    await subscription.ready;
    const { id } = await admin.POST('/api/events', { body: { topic: 'sdk.key.test' } });
    expect(await received.next((e) => e.id === id)).toMatchObject({ topic: 'sdk.key.test', user: 'admin' });
  });

  it('stops for good when the server refuses the credentials', async () => {
    const errors: Error[] = [];
    const subscription = createClient({ baseUrl, token: 'f'.repeat(64) }).subscribe({
      topics: ['*'],
      onEvent: () => {},
      onError: (error) => errors.push(error),
    });
    await expect(subscription.ready).rejects.toThrow(
      'The server refused the subscription: Invalid or expired token',
    );
    expect(errors.map((e) => e.message)).toEqual([
      'The server refused the subscription: Invalid or expired token',
    ]);
    expect(subscription.connected).toBe(false);
  });

  it('hears nothing more after close(), and a failing handler does not end the subscription', async () => {
    const closedOne = collector<LiveEvent>();
    const first = admin.subscribe({ topics: ['sdk.close'], onEvent: closedOne.add });
    const errors: Error[] = [];
    const open = collector<LiveEvent>();
    const second = admin.subscribe({
      topics: ['sdk.close'],
      onEvent: (event) => {
        open.add(event);
        throw new Error(`handler failed on ${event.topic}`);
      },
      onError: (error) => errors.push(error),
    });
    subscriptions.push(second);
    await Promise.all([first.ready, second.ready]);
    await first.close();
    expect(first.connected).toBe(false);

    await admin.POST('/api/events', { body: { topic: 'sdk.close.one' } });
    const { id } = await admin.POST('/api/events', { body: { topic: 'sdk.close.two' } });
    await open.next((e) => e.id === id);
    expect(open.items.map((e) => e.topic)).toEqual(['sdk.close.one', 'sdk.close.two']);
    expect(errors.map((e) => e.message)).toEqual([
      'handler failed on sdk.close.one',
      'handler failed on sdk.close.two',
    ]);
    expect(closedOne.items).toEqual([]);
  });
});
