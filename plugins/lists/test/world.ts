import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { usersRef } from '@pipewright/plugin-users/api';

// One studio for a test file: users of every kind, the project "show" with a small folder tree, and helpers that
// speak to the server as one of them. The users addon is the user source; teams are made through their routes.

const PASSWORD = 'correct horse battery';

export const P = '/api/projects/show';

export interface World {
  core: TestCore;
  /** Tokens by user name. */
  token: Record<string, string>;
  /** Entity ids by a short name (see the tree below). */
  id: Record<string, string>;
  as(
    user: string | undefined,
  ): (
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => ReturnType<TestCore['request']>;
  /** Create an entity as the admin and answer its id. */
  create(plural: string, body: Record<string, unknown>): Promise<string>;
  /** Create a list as a user and answer its id. */
  createList(user: string, body: Record<string, unknown>): Promise<string>;
  /** Stored events of a topic, oldest first. */
  events(topic: string): Promise<Record<string, any>[]>;
}

/**
 * Users: root (admin), boss (manager), artie and bob (artists on show), fred (freelancer on show), eve (artist
 * elsewhere only). Tree of show:
 *   assets/tree (task modeling, product modelMain with v001, v002 and representation abc, workfile)
 *   assets/rock
 *   shots/sh_010 (task comp assigned to fred and artie), shots/shX010
 */
export async function buildWorld(addons: string[] = []): Promise<World> {
  const core = await bootTestCore({ addons: ['lists', 'users', 'teams', ...addons] });
  const token: Record<string, string> = {};
  const users = core.services.get(usersRef);
  const people: Record<string, Record<string, unknown>> = {
    root: { isAdmin: true },
    boss: { isManager: true },
    artie: { accessGroups: { show: ['artist'] } },
    bob: { accessGroups: { show: ['artist'] } },
    fred: { accessGroups: { show: ['freelancer'] } },
    eve: { accessGroups: { elsewhere: ['artist'] } },
  };
  for (const [name, data] of Object.entries(people)) {
    await users.create({ name, password: PASSWORD, data });
    token[name] = (
      await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } })
    ).body.token;
  }
  const as: World['as'] = (user) => (method, url, body, headers) =>
    core.request(method, url, { token: user ? token[user] : undefined, body, headers });
  const created = await as('boss')('POST', '/api/projects', { name: 'show', code: 'sh' });
  if (created.status !== 201) throw new Error(`project: ${created.status} ${created.text}`);
  const create: World['create'] = async (plural, body) => {
    const res = await as('root')('POST', `${P}/${plural}`, body);
    if (res.status !== 201) throw new Error(`create ${plural}: ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  const id: Record<string, string> = {};
  id.assets = await create('folders', { name: 'assets', folderType: 'Folder' });
  id.tree = await create('folders', { name: 'tree', folderType: 'Asset', parentId: id.assets });
  id.rock = await create('folders', { name: 'rock', folderType: 'Asset', parentId: id.assets });
  id.shots = await create('folders', { name: 'shots', folderType: 'Folder' });
  id.sh010 = await create('folders', { name: 'sh_010', folderType: 'Shot', parentId: id.shots });
  id.shX010 = await create('folders', { name: 'shX010', folderType: 'Shot', parentId: id.shots });
  id.modeling = await create('tasks', { name: 'modeling', taskType: 'Modeling', folderId: id.tree });
  id.comp = await create('tasks', {
    name: 'comp',
    taskType: 'Compositing',
    folderId: id.sh010,
    assignees: ['fred', 'artie'],
  });
  id.modelMain = await create('products', { name: 'modelMain', productType: 'model', folderId: id.tree });
  id.v1 = await create('versions', { version: 1, productId: id.modelMain, taskId: id.modeling });
  id.v2 = await create('versions', { version: 2, productId: id.modelMain, taskId: id.modeling });
  id.abc = await create('representations', { name: 'abc', versionId: id.v1 });
  id.workfile = await create('workfiles', { path: 'show/tree/work/tree_v001.ma', taskId: id.modeling });
  const createList: World['createList'] = async (user, body) => {
    const res = await as(user)('POST', `${P}/lists`, body);
    if (res.status !== 201) throw new Error(`create list: ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  const events: World['events'] = (topic) =>
    core.db.selectFrom('events').selectAll().where('topic', '=', topic).orderBy('creation_order').execute();
  return { core, token, id, as, create, createList, events };
}
