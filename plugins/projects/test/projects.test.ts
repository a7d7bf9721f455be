import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// The users addon is the user source here: projects need logged-in managers and artists.
let core: TestCore;
let manager: string;
let artist: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['projects', 'users'] });
  manager = await seedUser(core, 'boss', { isManager: true });
  artist = await seedUser(core, 'artie', { accessGroups: { demo: ['artist'] } });
});
afterAll(() => core.close());

const schemaExists = async (schema: string) =>
  (
    await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM information_schema.schemata WHERE schema_name = ${schema}`.execute(core.db)
  ).rows[0].n === 1;

describe('creating projects', () => {
  it('deploys a project from the default anatomy, with its own schema', async () => {
    const res = await core.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'demo', code: 'dm' },
    });
    expect(res.status).toBe(201);
    expect(await schemaExists('project_demo')).toBe(true);
    const project = (await core.request('GET', '/api/projects/demo', { token: manager })).body;
    expect(project).toMatchObject({ name: 'demo', code: 'dm', library: false, active: true });
    expect(project.folderTypes.map((t: any) => t.name)).toEqual(expect.arrayContaining(['Folder', 'Shot']));
    expect(project.statuses.length).toBeGreaterThan(0);
    expect(project.config.roots.work).toEqual(expect.objectContaining({ linux: expect.any(String) }));
    expect(project.attrib).toMatchObject({ fps: 25, resolutionWidth: 1920, frameStart: 1001 });
    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'entity.project.created')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ project_name: 'demo', user_name: 'boss' });
  });

  it('deploys from an anatomy document sent with the request', async () => {
    const anatomy = {
      statuses: [
        { name: 'Todo', state: 'not_started' },
        { name: 'Done', state: 'done' },
      ],
      attributes: { fps: 24 },
    };
    const res = await core.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'film', code: 'flm', anatomy, library: true },
    });
    expect(res.status).toBe(201);
    const film = (await core.request('GET', '/api/projects/film', { token: manager })).body;
    expect(film.statuses.map((s: any) => s.name)).toEqual(['Todo', 'Done']);
    expect(film.attrib.fps).toBe(24);
    expect(film.library).toBe(true);
  });

  it('refuses duplicate names in any case and duplicate codes with 409, leaving nothing behind', async () => {
    const dupName = await core.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'DEMO', code: 'other' },
    });
    expect(dupName.status).toBe(409);
    const dupCode = await core.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'fresh', code: 'DM' },
    });
    expect(dupCode.status).toBe(409);
    expect(await schemaExists('project_fresh')).toBe(false);
  });

  it('creates with PUT (ignoring a body name), then replaces named fields with PUT', async () => {
    const created = await core.request('PUT', '/api/projects/commercial', {
      token: manager,
      body: { name: 'ignored', code: 'com', attrib: { fps: 30 } },
    });
    expect(created.status).toBe(201);
    expect((await core.request('GET', '/api/projects/ignored', { token: manager })).status).toBe(404);
    const replaced = await core.request('PUT', '/api/projects/commercial', {
      token: manager,
      body: { tags: [{ name: 'urgent', color: '#ff0000' }] },
    });
    expect(replaced.status).toBe(204);
    const project = (await core.request('GET', '/api/projects/commercial', { token: manager })).body;
    expect(project.tags).toEqual([{ name: 'urgent', color: '#ff0000' }]);
    expect(project.attrib.fps).toBe(30);
    expect(project.ownAttrib).toEqual(['fps']);
  });

  it('takes a code of any length AYON stores, empty included', async () => {
    const code = 'c'.repeat(300);
    const long = await core.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'longcode', code },
    });
    expect(long.status).toBe(201);
    expect((await core.request('GET', '/api/projects/longcode', { token: manager })).body.code).toBe(code);
    expect(
      (await core.request('PATCH', '/api/projects/longcode', { token: manager, body: { code: '' } })).status,
    ).toBe(204);
    expect((await core.request('GET', '/api/projects/longcode', { token: manager })).body.code).toBe('');
    expect((await core.request('DELETE', '/api/projects/longcode', { token: manager })).status).toBe(204);
  });

  it('answers bad input with 422 and lets only managers create', async () => {
    const bad = await core.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'bad name', code: 'x-y' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.loc.join('.')).sort()).toEqual(['body.code', 'body.name']);
    const badAttrib = await core.request('PUT', '/api/projects/p2', {
      token: manager,
      body: { attrib: { fps: 'fast', nonsense: 1 } },
    });
    expect(badAttrib.status).toBe(422);
    // A name no attribute has is dropped, as AYON's attribute model drops it; a bad value is refused.
    expect(badAttrib.body.errors.map((e: any) => e.loc.join('.')).sort()).toEqual(['body.attrib.fps']);
    expect(await schemaExists('project_p2')).toBe(false);
    const badAnatomy = await core.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'p3', code: 'p3', anatomy: { statuses: [{ color: '#ff0000' }] } },
    });
    expect(badAnatomy.status).toBe(422);
    expect(badAnatomy.body.errors[0].loc.slice(0, 3)).toEqual(['body', 'anatomy', 'statuses']);
    expect(
      (await core.request('POST', '/api/projects', { token: artist, body: { name: 'mine', code: 'mine' } }))
        .status,
    ).toBe(403);
    expect((await core.request('PUT', '/api/projects/-x', { token: manager, body: {} })).status).toBe(422);
  });
});

describe('listing projects', () => {
  it('pages, orders and filters', async () => {
    const list = async (query: string) =>
      (await core.request('GET', `/api/projects${query}`, { token: manager })).body;
    expect((await list('')).projects.map((p: any) => p.name)).toEqual(['commercial', 'demo', 'film']);
    const page = await list('?length=2&page=2');
    expect(page.count).toBe(3);
    expect(page.projects.map((p: any) => p.name)).toEqual(['film']);
    expect((await list('?order=createdAt&desc=true')).projects[0].name).toBe('commercial');
    expect((await list('?library=true')).projects.map((p: any) => p.name)).toEqual(['film']);
    expect((await list('?name=d%25')).projects.map((p: any) => p.name)).toEqual(['demo']);
    expect(Object.keys((await list('')).projects[0]).sort()).toEqual([
      'active',
      'code',
      'createdAt',
      'library',
      'name',
      'updatedAt',
    ]);
  });

  it('lists every project for a length of 0 or less, as AYON does for none or 0', async () => {
    const names = async (query: string) => {
      const res = await core.request('GET', `/api/projects${query}`, { token: manager });
      expect(res.status).toBe(200);
      return res.body.projects.map((p: any) => p.name);
    };
    const all = ['commercial', 'demo', 'film'];
    expect(await names('?length=0')).toEqual(all);
    expect(await names('?length=-5&page=3')).toEqual(all);
    expect(await names('?length=100000&page=99999999999')).toEqual([]);
    expect(await names(`?name=${'x'.repeat(300)}`)).toEqual([]);
  });

  it('shows a normal user only the projects an access group gives them', async () => {
    const seen = await core.request('GET', '/api/projects', { token: artist });
    expect(seen.body.projects.map((p: any) => p.name)).toEqual(['demo']);
    const hidden = await core.request('GET', '/api/projects/film', { token: artist });
    const missing = await core.request('GET', '/api/projects/nosuchfilm', { token: artist });
    // Without access, a project that exists and one that does not answer alike.
    expect([hidden.status, missing.status]).toEqual([403, 403]);
    expect(hidden.body.detail.replace('film', 'X')).toBe(missing.body.detail.replace('nosuchfilm', 'X'));
    expect((await core.request('GET', '/api/projects/demo', { token: artist })).status).toBe(200);
  });

  it('validates the query', async () => {
    // Unknown parameters are ignored, as FastAPI does.
    expect((await core.request('GET', '/api/projects?colour=red', { token: manager })).status).toBe(200);
    for (const query of ['page=0', 'order=size', 'desc=maybe']) {
      const res = await core.request('GET', `/api/projects?${query}`, { token: manager });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].loc[0]).toBe('query');
    }
  });
});

describe('changing projects', () => {
  it('merges attrib, data and config, a null removing the key', async () => {
    await core.request('PATCH', '/api/projects/demo', {
      token: manager,
      body: { data: { client: 'ACME', budget: { days: 10 } }, attrib: { fps: 50 } },
    });
    const res = await core.request('PATCH', '/api/projects/demo', {
      token: manager,
      body: { data: { client: null, budget: { crew: 3 } }, attrib: { fps: null }, active: false },
    });
    expect(res.status).toBe(204);
    const demo = (await core.request('GET', '/api/projects/demo', { token: manager })).body;
    expect(demo.data).toEqual({ budget: { days: 10, crew: 3 } });
    expect(demo.attrib.fps).toBe(25);
    expect(demo.ownAttrib).not.toContain('fps');
    expect(demo.active).toBe(false);
  });

  it('answers a project without its unset attributes, as AYON leaves out what is none', async () => {
    const defaults = (await core.request('GET', '/api/attributes', { token: manager })).body.attributes;
    const unset = defaults
      .filter((a: any) => a.scope.includes('project') && (a.data.default ?? null) === null)
      .map((a: any) => a.name);
    expect(unset).toContain('endDate');
    const demo = (await core.request('GET', '/api/projects/demo', { token: manager })).body;
    for (const name of unset) expect([name, name in demo.attrib]).toEqual([name, false]);
    expect(Object.values(demo.attrib)).not.toContain(null);
    await core.request('PATCH', '/api/projects/demo', {
      token: manager,
      body: { attrib: { endDate: '2027-01-31T00:00:00Z' } },
    });
    const set = (await core.request('GET', '/api/projects/demo', { token: manager })).body;
    expect(set.attrib.endDate).toBe('2027-01-31T00:00:00Z');
  });

  it('validates patches and refuses normal users', async () => {
    expect(
      (
        await core.request('PATCH', '/api/projects/demo', {
          token: manager,
          body: { attrib: { resolutionWidth: 99999 } },
        })
      ).status,
    ).toBe(422);
    expect(
      (await core.request('PATCH', '/api/projects/demo', { token: manager, body: { code: 7, unknown: 1 } }))
        .status,
    ).toBe(422);
    expect(
      (await core.request('PATCH', '/api/projects/demo', { token: manager, body: { code: 'FLM' } })).status,
    ).toBe(409);
    expect(
      (await core.request('PATCH', '/api/projects/demo', { token: artist, body: { active: true } })).status,
    ).toBe(403);
    expect((await core.request('PATCH', '/api/projects/nowhere', { token: manager, body: {} })).status).toBe(
      404,
    );
  });

  it('serves the anatomy of a project and replaces it', async () => {
    const anatomy = (await core.request('GET', '/api/projects/film/anatomy', { token: manager })).body;
    expect(anatomy.statuses.map((s: any) => s.name)).toEqual(['Todo', 'Done']);
    anatomy.statuses.push({ name: 'Blocked', state: 'blocked' });
    expect(
      (await core.request('POST', '/api/projects/film/anatomy', { token: manager, body: anatomy })).status,
    ).toBe(204);
    const film = (await core.request('GET', '/api/projects/film', { token: manager })).body;
    expect(film.statuses.map((s: any) => s.name)).toEqual(['Todo', 'Done', 'Blocked']);
    expect(
      (await core.request('POST', '/api/projects/film/anatomy', { token: manager, body: { tags: 'none' } }))
        .status,
    ).toBe(422);
  });
});

describe('roots', () => {
  it('serves roots per platform, with a site overriding some of them', async () => {
    const roots = (await core.request('GET', '/api/projects/demo/roots', { token: artist })).body;
    expect(Object.keys(roots)).toEqual(['work']);
    const put = await core.request('PUT', '/api/projects/demo/roots/site-7', {
      token: artist,
      body: { work: '/mnt/fast/work' },
    });
    expect(put.status).toBe(204);
    const site = await core.request('GET', '/api/projects/demo/siteRoots?platform=linux', {
      token: artist,
      headers: { 'x-ayon-site-id': 'site-7' },
    });
    expect(site.body).toEqual({ work: '/mnt/fast/work' });
    const plain = await core.request('GET', '/api/projects/demo/siteRoots?platform=windows', {
      token: artist,
    });
    expect(plain.body).toEqual({ work: roots.work.windows });
    const unknown = await core.request('PUT', '/api/projects/demo/roots/site-7', {
      token: artist,
      body: { render: '/x' },
    });
    expect(unknown.status).toBe(422);
    expect(
      (await core.request('GET', '/api/projects/demo/siteRoots?platform=amiga', { token: artist })).status,
    ).toBe(422);
    // A site id is any text, as in AYON.
    const odd = 'my site/é'.repeat(20);
    expect(
      (
        await core.request('PUT', `/api/projects/demo/roots/${encodeURIComponent(odd)}`, {
          token: artist,
          body: { work: '/mnt/odd' },
        })
      ).status,
    ).toBe(204);
    const oddSite = await core.request('GET', '/api/projects/demo/siteRoots?platform=linux', {
      token: artist,
      headers: { 'x-ayon-site-id': odd },
    });
    expect(oddSite.body).toEqual({ work: '/mnt/odd' });
  });
});

describe('deleting projects', () => {
  it('drops the project and its schema; managers only', async () => {
    expect((await core.request('DELETE', '/api/projects/commercial', { token: artist })).status).toBe(403);
    expect((await core.request('DELETE', '/api/projects/commercial', { token: manager })).status).toBe(204);
    expect(await schemaExists('project_commercial')).toBe(false);
    expect((await core.request('GET', '/api/projects/commercial', { token: manager })).status).toBe(404);
    expect((await core.request('DELETE', '/api/projects/commercial', { token: manager })).status).toBe(404);
  });
});
