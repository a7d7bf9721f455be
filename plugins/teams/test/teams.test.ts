import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// The users addon is the user source: managers change teams, artists with access to a project read them.
let core: TestCore;
let admin: string;
let manager: string;
let artist: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['teams', 'users'] });
  admin = await seedUser(core, 'root', { isAdmin: true });
  manager = await seedUser(core, 'boss', { isManager: true });
  artist = await seedUser(core, 'artie', { accessGroups: { demo: ['artist'] } });
  for (const name of ['demo', 'other']) {
    const res = await core.request('POST', '/api/projects', { token: manager, body: { name, code: name } });
    if (res.status !== 201) throw new Error(`project ${name}: ${res.status} ${res.text}`);
  }
});
afterAll(() => core.close());

const base = '/api/projects/demo/teams';
const list = async (showMembers = false, token = manager, project = 'demo') => {
  const res = await core.request(
    'GET',
    `/api/projects/${project}/teams${showMembers ? '?show_members=true' : ''}`,
    { token },
  );
  expect(res.status).toBe(200);
  return res.body as any[];
};
const putTeam = (team: string, body: unknown, token = manager) =>
  core.request('PUT', `${base}/${team}`, { token, body });
const putMember = (team: string, member: string, body: unknown = {}, token = manager) =>
  core.request('PUT', `${base}/${team}/members/${member}`, { token, body });

describe('creating and listing teams', () => {
  it('creates a team with PUT and lists it with its leaders and member count', async () => {
    const res = await putTeam('lighting', {
      members: [
        { name: 'artie', roles: ['lighter'] },
        { name: 'boss', leader: true, roles: ['sup'] },
      ],
    });
    expect(res.status).toBe(204);
    expect(await list()).toEqual([
      { name: 'lighting', memberCount: 2, leaders: [{ name: 'boss', leader: true, roles: ['sup'] }] },
    ]);
    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'team.changed')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      project_name: 'demo',
      user_name: 'boss',
      summary: { teamName: 'lighting' },
    });
  });

  it('shows members, with defaults filled in, only when asked', async () => {
    await putTeam('comp', { members: [{ name: 'artie' }] });
    const teams = await list(true);
    expect(teams).toEqual([
      { name: 'comp', memberCount: 1, members: [{ name: 'artie', leader: false, roles: [] }], leaders: [] },
      {
        name: 'lighting',
        memberCount: 2,
        members: [
          { name: 'artie', leader: false, roles: ['lighter'] },
          { name: 'boss', leader: true, roles: ['sup'] },
        ],
        leaders: [{ name: 'boss', leader: true, roles: ['sup'] }],
      },
    ]);
    expect((await list(false)).every((team) => !('members' in team))).toBe(true);
  });

  it('replaces the members of an existing team with PUT', async () => {
    expect((await putTeam('comp', { name: 'comp', members: [{ name: 'boss', leader: true }] })).status).toBe(
      204,
    );
    const comp = (await list(true)).find((team) => team.name === 'comp');
    expect(comp.members).toEqual([{ name: 'boss', leader: true, roles: [] }]);
  });

  it('keeps teams per project', async () => {
    expect(await list(false, manager, 'other')).toEqual([]);
  });
});

describe('members', () => {
  it('adds a member, then changes only what is sent', async () => {
    expect((await putMember('comp', 'newbie', { roles: ['roto', 'paint', 'roto'] })).status).toBe(204);
    expect((await putMember('comp', 'newbie', { leader: true })).status).toBe(204);
    let comp = (await list(true)).find((team) => team.name === 'comp');
    expect(comp.members).toEqual([
      { name: 'boss', leader: true, roles: [] },
      { name: 'newbie', leader: true, roles: ['roto', 'paint'] },
    ]);
    expect(comp.leaders.map((l: any) => l.name)).toEqual(['boss', 'newbie']);

    expect((await putMember('comp', 'newbie', { leader: false, roles: [] })).status).toBe(204);
    comp = (await list(true)).find((team) => team.name === 'comp');
    expect(comp.members[1]).toEqual({ name: 'newbie', leader: false, roles: [] });
    expect(comp.leaders.map((l: any) => l.name)).toEqual(['boss']);
  });

  it('treats member names without regard to case, as user names are', async () => {
    expect((await putMember('comp', 'NEWBIE', { roles: ['comp'] })).status).toBe(204);
    const comp = (await list(true)).find((team) => team.name === 'comp');
    expect(comp.memberCount).toBe(2);
    expect(comp.members[1]).toEqual({ name: 'NEWBIE', leader: false, roles: ['comp'] });
  });

  it('removes a member, then answers 404', async () => {
    expect((await core.request('DELETE', `${base}/comp/members/newbie`, { token: manager })).status).toBe(
      204,
    );
    expect((await core.request('DELETE', `${base}/comp/members/newbie`, { token: manager })).status).toBe(
      404,
    );
    expect((await list()).find((team) => team.name === 'comp').memberCount).toBe(1);
  });

  it('answers 404 for members of a missing team', async () => {
    expect((await putMember('ghosts', 'artie')).status).toBe(404);
    expect((await core.request('DELETE', `${base}/ghosts/members/artie`, { token: manager })).status).toBe(
      404,
    );
  });
});

describe('replacing all teams with PATCH', () => {
  it('makes the list the whole set', async () => {
    const res = await core.request('PATCH', base, {
      token: manager,
      body: [
        { name: 'comp', members: [{ name: 'artie', leader: true, roles: ['lead'] }] },
        { name: 'fx', members: [] },
        { name: 'anim' },
      ],
    });
    expect(res.status).toBe(204);
    const teams = await list(true);
    expect(teams.map((team) => team.name)).toEqual(['anim', 'comp', 'fx']);
    expect(teams[1].members).toEqual([{ name: 'artie', leader: true, roles: ['lead'] }]);
    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('description', '=', 'Teams replaced')
      .executeTakeFirstOrThrow();
    expect(event.summary).toEqual({ teams: ['comp', 'fx', 'anim'] });
  });

  it('changes nothing when one team of the list is bad', async () => {
    const before = await list(true);
    const attempts = [
      [
        { name: 'ok', members: [] },
        { name: 'x', members: [] },
      ],
      [
        { name: 'ok', members: [] },
        { name: 'dup', members: [{ name: 'artie' }, { name: 'Artie' }] },
      ],
      [
        { name: 'ok', members: [] },
        { name: 'ok', members: [] },
      ],
      [{ name: 'ok', members: [{ name: '-bad-' }] }],
    ];
    for (const body of attempts) {
      const res = await core.request('PATCH', base, { token: manager, body });
      expect(res.status).toBe(422);
    }
    expect(await list(true)).toEqual(before);
  });

  it('rolls back a write that fails halfway through', async () => {
    const before = await list(true);
    // A constraint the addon knows nothing about makes the second insert fail after the first change was made.
    await sql`ALTER TABLE project_demo.teams ADD CONSTRAINT no_boom CHECK (name <> 'boom')`.execute(core.db);
    try {
      const res = await core.request('PATCH', base, {
        token: manager,
        body: [
          { name: 'fresh', members: [] },
          { name: 'boom', members: [] },
        ],
      });
      expect(res.status).toBe(500);
    } finally {
      await sql`ALTER TABLE project_demo.teams DROP CONSTRAINT no_boom`.execute(core.db);
    }
    expect(await list(true)).toEqual(before);
  });

  it('locates the problems in the list', async () => {
    const res = await core.request('PATCH', base, {
      token: manager,
      body: [
        { name: 'ok', members: [] },
        { name: 'dup', members: [{ name: 'artie' }, { name: 'boss' }, { name: 'ARTIE' }] },
        { name: 'ok' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.loc.join('.'))).toEqual([
      'body.1.members.2.name',
      'body.2.name',
    ]);
  });

  it('empties the project with an empty list', async () => {
    await core.request('PATCH', '/api/projects/other/teams', { token: manager, body: [{ name: 'temp' }] });
    expect(
      (await core.request('PATCH', '/api/projects/other/teams', { token: manager, body: [] })).status,
    ).toBe(204);
    expect(await list(false, manager, 'other')).toEqual([]);
  });
});

describe('deleting teams', () => {
  it('deletes, then answers 404', async () => {
    expect((await core.request('DELETE', `${base}/fx`, { token: manager })).status).toBe(204);
    expect((await core.request('DELETE', `${base}/fx`, { token: manager })).status).toBe(404);
    expect((await list()).map((team) => team.name)).toEqual(['anim', 'comp']);
  });
});

describe('validation', () => {
  it('takes any team name in the path, as AYON does, and answers 404 for one no team has', async () => {
    for (const [sent, stored] of [
      ['x', 'x'],
      ['y'.repeat(65), 'y'.repeat(65)],
      ['a%2Fb', 'a/b'],
      ['tab%09s', 'tab\ts'],
      ['Look%20Dev', 'Look Dev'],
    ]) {
      expect((await putTeam(sent, { members: [] })).status).toBe(204);
      expect((await list()).map((team) => team.name)).toContain(stored);
      expect((await core.request('DELETE', `${base}/${sent}`, { token: manager })).status).toBe(204);
    }
    expect((await core.request('DELETE', `${base}/no%20such%20team`, { token: manager })).status).toBe(404);
    expect((await putMember('no%20such%20team', 'artie')).status).toBe(404);
    // NUL is the one thing no text column holds: refused before anything is stored.
    expect((await putTeam('nul%00l', { members: [] })).status).toBe(422);
    // The names of the PATCH list keep AYON's bounds there: 2 to 64 characters.
    const short = await core.request('PATCH', base, { token: manager, body: [{ name: 'x' }] });
    expect(short.status).toBe(422);
    expect(short.body.errors[0].loc).toEqual(['body', 0, 'name']);
  });

  it('replaces the teams with a list of any length (no cap, as in AYON)', async () => {
    const body = Array.from({ length: 1001 }, (_, i) => ({ name: `team${i}`, members: [] }));
    expect((await core.request('PATCH', '/api/projects/other/teams', { token: manager, body })).status).toBe(
      204,
    );
    expect(await list(false, manager, 'other')).toHaveLength(1001);
    const fewer = body.slice(0, 2);
    expect(
      (await core.request('PATCH', '/api/projects/other/teams', { token: manager, body: fewer })).status,
    ).toBe(204);
    expect((await list(false, manager, 'other')).map((team) => team.name)).toEqual(['team0', 'team1']);
    await core.request('PATCH', '/api/projects/other/teams', { token: manager, body: [] });
  });

  it('checks member names and duplicates', async () => {
    const bad = await putTeam('crew', {
      members: [{ name: 'ok.name' }, { name: '_under' }, { name: 'dot.' }, { name: 'x', leader: 'yes' }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.members.1.name', 'body.members.2.name', 'body.members.3.leader']),
    );
    const dup = await putTeam('crew', { members: [{ name: 'artie' }, { name: 'artie', leader: true }] });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.map((e: any) => e.loc.join('.'))).toEqual(['body.members.1.name']);
    expect((await putMember('comp', 'artie', { roles: 'lead' })).status).toBe(422);
    expect((await putMember('comp', 'artie', { roles: ['nul\u0000'] })).status).toBe(422);
    expect((await putTeam('crew', {})).status).toBe(422);
    expect((await list()).map((team) => team.name)).not.toContain('crew');
  });

  it('takes a member name and roles as AYON does: any text', async () => {
    expect((await putMember('comp', '-odd%20one', { roles: ['', 'r'.repeat(200), 'key grip'] })).status).toBe(
      204,
    );
    const comp = (await list(true)).find((team) => team.name === 'comp');
    expect(comp.members).toContainEqual({
      name: '-odd one',
      leader: false,
      roles: ['', 'r'.repeat(200), 'key grip'],
    });
    expect((await core.request('DELETE', `${base}/comp/members/-odd%20one`, { token: manager })).status).toBe(
      204,
    );
    expect((await core.request('DELETE', `${base}/comp/members/-odd%20one`, { token: manager })).status).toBe(
      404,
    );
  });

  it('answers 404 for a missing project and 422 for a bad project name', async () => {
    expect((await core.request('GET', '/api/projects/nope/teams', { token: manager })).status).toBe(404);
    expect(
      (await core.request('PUT', '/api/projects/nope/teams/crew', { token: manager, body: { members: [] } }))
        .status,
    ).toBe(404);
    expect((await core.request('GET', '/api/projects/bad-name/teams', { token: manager })).status).toBe(422);
  });
});

describe('access', () => {
  it('lets a user with access to the project read its teams, not those of other projects', async () => {
    expect((await list(true, artist)).map((team) => team.name)).toContain('comp');
    expect((await core.request('GET', '/api/projects/other/teams', { token: artist })).status).toBe(403);
    expect((await core.request('GET', base)).status).toBe(401);
  });

  it('lets only managers and admins change teams', async () => {
    const writes = [
      () => core.request('PATCH', base, { token: artist, body: [] }),
      () => putTeam('artists', { members: [] }, artist),
      () => core.request('DELETE', `${base}/comp`, { token: artist }),
      () => putMember('comp', 'artie', { leader: true }, artist),
      () => core.request('DELETE', `${base}/comp/members/artie`, { token: artist }),
    ];
    for (const write of writes) expect((await write()).status).toBe(403);
    expect((await list()).map((team) => team.name)).toContain('comp');
    expect((await putTeam('admins', { members: [{ name: 'root', leader: true }] }, admin)).status).toBe(204);
  });
});
