import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// Who may list whom through GraphQL users / user, with the access addon giving list_all_users as AYON does (from
// the studio groups in defaultAccessGroups). boss is a manager; reader holds list_all_users; artie works in "show",
// fran in "show" and "other", otto only in "other".
let core: TestCore;
const tokens: Record<string, string> = {};

async function seed(name: string, data: Record<string, unknown>) {
  tokens[name] = await seedUser(core, name, data);
}

const gql = (who: string, query: string) =>
  core.request('POST', '/graphql', { token: tokens[who], body: { query } });

async function names(who: string, args: string): Promise<string[]> {
  const res = await gql(who, `{ users${args} { edges { node { name } } } }`);
  if (res.body.errors) throw new Error(`${who} ${args}: ${JSON.stringify(res.body.errors)}`);
  return res.body.data.users.edges.map((edge: any) => edge.node.name);
}

async function refusal(who: string, query: string) {
  const res = await gql(who, query);
  return { status: res.body.errors?.[0]?.extensions?.status, message: res.body.errors?.[0]?.message };
}

beforeAll(async () => {
  core = await bootTestCore({ addons: ['graphql', 'access'] });
  await seed('boss', { isManager: true });
  for (const name of ['show', 'other']) {
    const res = await core.request('POST', '/api/projects', {
      token: tokens.boss,
      body: { name, code: name },
    });
    expect(res.status).toBe(201);
  }
  const group = await core.request('PUT', '/api/accessGroups/directory/_', {
    token: tokens.boss,
    body: { studio: { list_all_users: true } },
  });
  expect(group.status).toBe(204);
  await seed('reader', { defaultAccessGroups: ['directory'] });
  await seed('artie', { accessGroups: { show: ['artist'] } });
  await seed('fran', { accessGroups: { show: ['artist'], other: ['artist'] } });
  await seed('otto', { accessGroups: { other: ['artist'] } });
  for (const who of ['fran', 'artie']) {
    const key = await core.request('POST', `/api/users/${who}/apikeys`, {
      token: tokens[who],
      body: { label: 'x' },
    });
    expect(key.status).toBe(201);
  }
});
afterAll(() => core?.close());

describe('users without list_all_users', () => {
  it('are refused the studio-wide list, also when asking with an empty projects list', async () => {
    const everyone = '{ users { edges { node { name } } } }';
    expect(await refusal('artie', everyone)).toEqual({
      status: 403,
      message: 'You are not allowed to access list_all_users',
    });
    expect((await refusal('artie', '{ users(projects: []) { edges { node { name } } } }')).status).toBe(403);
  });

  it('list the people of their own projects only', async () => {
    expect((await names('artie', '(projectName: "show")')).sort()).toEqual(['artie', 'boss', 'fran']);
    expect(await refusal('artie', '{ users(projectName: "other") { edges { node { name } } } }')).toEqual({
      status: 403,
      message: 'You are not allowed to list the users of project other',
    });
    // Naming every project must not add up to listing everyone.
    expect(
      (await refusal('artie', '{ users(projects: ["show", "other"]) { edges { node { name } } } }')).status,
    ).toBe(403);
  });

  it('always see themselves, and nobody else by name', async () => {
    expect(await names('artie', '(name: "artie")')).toEqual(['artie']);
    expect(await names('artie', '(names: ["artie"])')).toEqual(['artie']);
    const me = await gql('artie', '{ user(name: "artie") { name apiKeyPreview accessGroups } }');
    expect(me.body.data.user).toEqual({
      name: 'artie',
      apiKeyPreview: expect.stringMatching(/^\*{4}/),
      accessGroups: JSON.stringify({ show: ['artist'] }),
    });
    expect((await refusal('artie', '{ user(name: "fran") { name } }')).status).toBe(403);
    expect(
      (await refusal('artie', '{ users(names: ["artie", "fran"]) { edges { node { name } } } }')).status,
    ).toBe(403);
  });

  it("see of colleagues neither their API keys nor their groups in projects they don't share", async () => {
    const res = await gql(
      'artie',
      '{ users(projectName: "show", names: ["fran"]) { edges { node { name apiKeyPreview accessGroups } } } }',
    );
    expect(res.body.data.users.edges[0].node).toEqual({
      name: 'fran',
      apiKeyPreview: null,
      accessGroups: JSON.stringify({ show: ['artist'] }),
    });
  });
});

describe('holders of list_all_users and managers', () => {
  it('list everyone', async () => {
    expect((await names('reader', '')).sort()).toEqual(['artie', 'boss', 'fran', 'otto', 'reader']);
    expect((await names('boss', '')).sort()).toEqual(['artie', 'boss', 'fran', 'otto', 'reader']);
    expect(await names('reader', '(projectName: "other")')).toEqual(expect.arrayContaining(['fran', 'otto']));
  });

  it('managers see all of anyone', async () => {
    const fran = (await gql('boss', '{ user(name: "fran") { apiKeyPreview accessGroups } }')).body.data.user;
    expect(fran.apiKeyPreview).toMatch(/^\*{4}/);
    expect(JSON.parse(fran.accessGroups)).toEqual({ show: ['artist'], other: ['artist'] });
  });
});
