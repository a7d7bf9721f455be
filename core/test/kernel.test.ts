import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '../src/testing.js';
import { importAddon } from '../src/addons/discover.js';
import type { EventMessage } from '@pipewright/sdk';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

describe('the kernel with a fixture addon', () => {
  let core: TestCore;
  beforeAll(async () => {
    const extraAddons = [
      await importAddon(join(fixtures, 'widgets'), false),
      await importAddon(join(fixtures, 'gadgets'), false),
    ];
    core = await bootTestCore({ addons: ['gadgets'], extraAddons });
  });
  afterAll(() => core.close());

  it('loads only the requested addon and its dependencies', () => {
    expect(core.addons.map((a) => a.name)).toEqual(['widgets', 'gadgets']);
  });

  it('mounts an installed addon under /api/addons/{name}/{version} and lets it use a dependency service', async () => {
    await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', { body: { name: 'sprocket' } });
    const res = await core.request('GET', '/api/addons/gadgets/0.1.0/count');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ widgets: 1 });
  });

  it('answers bad input with 422 in the AYON shape, listing every problem', async () => {
    const res = await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', {
      body: { name: '-bad-', size: 0 },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/^Validation error/);
    const locs = res.body.errors.map((e: any) => e.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body', 'name'],
        ['body', 'size'],
      ]),
    );
    for (const e of res.body.errors) expect(Object.keys(e).sort()).toEqual(['loc', 'msg', 'type']);
  });

  it('does not coerce JSON body types but does coerce query strings', async () => {
    const body = await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', { body: { name: 12 } });
    expect(body.status).toBe(422);
    expect(body.body.errors[0]).toMatchObject({ loc: ['body', 'name'], type: 'type' });
    const query = await core.request(
      'GET',
      `/api/addons/widgets/1.2.0/api/widgets/${'a'.repeat(32)}?limit=abc`,
    );
    expect(query.status).toBe(422);
    expect(query.body.errors[0].loc).toEqual(['query', 'limit']);
  });

  describe('reads input as AYON (FastAPI and pydantic) does', () => {
    const echo = '/api/addons/widgets/1.2.0/api/widgets-echo';
    const json = { 'content-type': 'application/json' };

    it('ignores fields a request model does not know, at every depth', async () => {
      const res = await core.request('POST', echo, {
        body: { name: 'cog', colour: 'red', spec: { maxSize: 3, unit: 'mm' } },
      });
      expect(res.status).toBe(200);
      expect(res.body.body).toEqual({ name: 'cog', spec: { maxSize: 3 } });
    });

    it('takes snake_case names for camelCase fields, the camelCase one winning when both are sent', async () => {
      const res = await core.request('POST', echo, {
        body: { name: 'cog', part_count: 4, spec: { max_size: 2 } },
      });
      expect(res.body.body).toEqual({ name: 'cog', partCount: 4, spec: { maxSize: 2 } });
      const both = await core.request('POST', echo, { body: { name: 'cog', part_count: 4, partCount: 5 } });
      expect(both.body.body.partCount).toBe(5);
    });

    it('still answers a field of the wrong type, or a missing one, with 422', async () => {
      const wrong = await core.request('POST', echo, {
        body: { name: 'cog', part_count: 'four', spec: { maxSize: 'big' } },
      });
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors.map((e: any) => e.loc)).toEqual(
        expect.arrayContaining([
          ['body', 'partCount'],
          ['body', 'spec', 'maxSize'],
        ]),
      );
      const missing = await core.request('POST', echo, { body: { colour: 'red' } });
      expect(missing.status).toBe(422);
      expect(missing.body.errors[0]).toMatchObject({ loc: ['body', 'name'], type: 'required' });
    });

    it('reads an empty body with a JSON content type as no body', async () => {
      const id = (
        await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', { body: { name: 'doomed' } })
      ).body.id;
      const deleted = await core.request('DELETE', `/api/addons/widgets/1.2.0/api/widgets/${id}`, {
        body: '',
        headers: json,
      });
      expect(deleted.status).toBe(204);
      expect(
        await core.db.selectFrom('widgets').select('id').where('id', '=', id).executeTakeFirst(),
      ).toBeUndefined();
      // A route that needs a body still says so, in the usual shape, for an empty one.
      const post = await core.request('POST', echo, { body: '  ', headers: json });
      expect(post.status).toBe(422);
      expect(post.body.errors[0].loc).toEqual(['body']);
    });

    it('reads booleans in the query as FastAPI does', async () => {
      for (const [text, value] of [
        ['1', true],
        ['0', false],
        ['true', true],
        ['no', false],
        ['on', true],
      ] as const) {
        const res = await core.request('POST', `${echo}?verbose=${text}`, { body: { name: 'cog' } });
        expect([text, res.body.verbose]).toEqual([text, value]);
      }
      const bad = await core.request('POST', `${echo}?verbose=maybe`, { body: { name: 'cog' } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].loc).toEqual(['query', 'verbose']);
    });
  });

  describe('refuses input that would reach the database malformed, with 422 in the AYON shape', () => {
    const echo = '/api/addons/widgets/1.2.0/api/widgets-echo';
    const named = '/api/addons/widgets/1.2.0/api/widgets-named';
    const raw = (body: string) =>
      core.request('POST', echo, { body, headers: { 'content-type': 'application/json' } });

    it('NUL characters and lone surrogates, in bodies, keys, paths and queries', async () => {
      const cases = [
        [await raw('{"name": "a\\u0000b"}'), ['body', 'name']],
        [await raw('{"name": "cog", "spec": {"\\ud800": 1}}'), ['body', 'spec', '\ud800']],
        [await raw('{"name": "a\\udc00"}'), ['body', 'name']],
        [await core.request('GET', `${named}/a%00b`), ['path', 'name']],
        [await core.request('GET', `${named}/cog?like=%00`), ['query', 'like']],
      ] as const;
      for (const [res, loc] of cases) {
        expect([res.status, res.body.errors[0].loc]).toEqual([422, loc]);
        expect(res.body.detail).toMatch(/^Validation error/);
      }
    });

    it('nesting deeper than anything the API takes, without overflowing the stack', async () => {
      const deep = await raw(`{"name": "cog", "spec": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
      expect(deep.status).toBe(422);
      expect(deep.body.errors[0].type).toBe('value_error.too_deep');
    });

    it('numbers no column holds', async () => {
      for (const number of ['1e999', '-1e999', String(2 ** 64)]) {
        const res = await raw(`{"name": "cog", "partCount": ${number}}`);
        expect([number, res.status, res.body.errors[0].loc]).toEqual([number, 422, ['body', 'partCount']]);
      }
      // Within JavaScript's safe range yet beyond the integer column: the database refuses it, answered as a 422 in
      // our words rather than PostgreSQL's.
      const big = await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', {
        body: { name: 'huge', size: 2 ** 40 },
      });
      expect(big.status).toBe(422);
      expect(big.body.detail).toBe('A number is out of range');
      expect(big.text).not.toMatch(/integer|widgets/);
    });

    it('lists a bounded number of problems for a huge array of wrong values', async () => {
      const res = await core.request('POST', echo, {
        body: { name: 'cog', tags: Array.from({ length: 100_000 }, () => 'x') },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveLength(20);
      expect(res.body.detail).toMatch(/and 99999 more/);
      expect(res.text.length).toBeLessThan(10_000);
    });
  });

  it('answers URLs that do not decode, and over-long path parameters, in the AYON shape', async () => {
    const encoding = await core.request('GET', '/api/users/%FF%FE/sessions');
    expect([encoding.status, encoding.body]).toEqual([400, { code: 400, detail: 'The URL is malformed' }]);
    const long = await core.request('GET', `/api/addons/widgets/1.2.0/api/widgets/${'a'.repeat(600)}`);
    expect(long.status).toBeGreaterThanOrEqual(400);
    expect(long.status).toBeLessThan(500);
    expect(Object.keys(long.body).sort()).toEqual(['code', 'detail']);
  });

  it('sends security headers on pages and API answers', async () => {
    for (const url of ['/api/info', '/api/addons/widgets/1.2.0/api/widgets-crash', '/api/no-such-route']) {
      const res = await core.request('GET', url);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
    const page = await core.request('GET', '/no-such-page');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'self'/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
  });

  it('reports path parameter and malformed JSON problems as 422', async () => {
    const path = await core.request('GET', '/api/addons/widgets/1.2.0/api/widgets/not-an-id');
    expect(path.status).toBe(422);
    expect(path.body.errors[0].loc).toEqual(['path', 'widget_id']);
    const json = await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', {
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(422);
    expect(json.body.errors[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('turns typed errors into {code, detail} and hides internals of unexpected ones', async () => {
    const missing = await core.request('GET', `/api/addons/widgets/1.2.0/api/widgets/${'b'.repeat(32)}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, detail: `Widget ${'b'.repeat(32)} not found` });
    const dup = await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', {
      body: { name: 'sprocket' },
    });
    expect(dup.body).toEqual({ code: 409, detail: 'A widget named sprocket already exists' });
    const crash = await core.request('GET', '/api/addons/widgets/1.2.0/api/widgets-crash');
    expect(crash.status).toBe(500);
    expect(crash.text).not.toContain('secret');
  });

  it('answers unknown /api paths with 404 in the same shape', async () => {
    const res = await core.request('GET', '/api/nothing/here?x=1');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, detail: 'Not found: GET /api/nothing/here' });
  });

  it('validates x-sender headers and passes them on to events', async () => {
    const bad = await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', {
      body: { name: 'x' },
      headers: { 'x-sender': 'bad sender!' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['header', 'x-sender']);
    const seen: EventMessage[] = [];
    const stop = core.events.subscribe('widget.*', (m) => void seen.push(m));
    await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', {
      body: { name: 'cog' },
      headers: { 'x-sender': 'tray-42', 'x-sender-type': 'publisher' },
    });
    stop();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ topic: 'widget.created', sender: 'tray-42', senderType: 'publisher' });
    const stored = await core.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', seen[0].id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      topic: 'widget.created',
      sender: 'tray-42',
      sender_type: 'publisher',
      status: 'finished',
    });
    expect(stored.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps each request its own sender, and gives none to what subscribers emit in reaction', async () => {
    const seen: EventMessage[] = [];
    const stopSeeing = core.events.subscribe('widget.*', (m) => void seen.push(m));
    const stopEcho = core.events.subscribe('widget.created', (m) =>
      core.events.emit({ topic: 'widget.echoed', summary: { of: m.summary.id } }).then(() => undefined),
    );
    // Concurrent requests over a socket, their bodies read from it while the others wait: each event names its own
    // request's client, though parsing a body runs in the socket's context.
    const base = await core.app.listen({ port: 0, host: '127.0.0.1' });
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((tab) =>
        fetch(`${base}/api/addons/widgets/1.2.0/api/widgets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sender': `tab-${tab}`, 'x-sender-type': 'web' },
          // Padded past what one read of the socket holds: the end of the body arrives after the request began.
          body: `${JSON.stringify({ name: `gear-${tab}` })}${' '.repeat(200_000)}`,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    await core.events.emit({ topic: 'widget.checked' });
    await core.events.delivered();
    await new Promise((resolve) => setTimeout(resolve, 50));
    stopSeeing();
    stopEcho();
    const created = seen.filter((m) => m.topic === 'widget.created');
    expect(created).toHaveLength(4);
    for (const m of created)
      expect(m).toMatchObject({ sender: `tab-${String(m.summary.name).slice(-1)}`, senderType: 'web' });
    const echoes = seen.filter((m) => m.topic === 'widget.echoed');
    expect(echoes).toHaveLength(4);
    expect(echoes.every((m) => m.sender === null && m.senderType === null)).toBe(true);
    expect(seen.find((m) => m.topic === 'widget.checked')).toMatchObject({ sender: null, senderType: null });
  });

  it('refuses a second event with the same hash', async () => {
    await core.events.emit({ topic: 'widget.checked', hash: 'h-1' });
    await expect(core.events.emit({ topic: 'widget.checked', hash: 'h-1' })).rejects.toMatchObject({
      status: 409,
    });
  });

  it('hands every message to every matching subscriber in order, whatever another subscriber throws', async () => {
    const heard: string[] = [];
    const stops = [
      core.events.subscribe('widget.sent*', () => {
        throw new Error('sync failure');
      }),
      core.events.subscribe('widget.*', async () => {
        throw new Error('async failure');
      }),
      core.events.subscribe('widget.sent*', (m) => void heard.push(m.summary.n as string)),
      core.events.subscribe('widget.sent.b', (m) => void heard.push(`exact ${m.summary.n}`)),
    ];
    await core.events.emitMany(['a', 'b', 'c'].map((n) => ({ topic: `widget.sent.${n}`, summary: { n } })));
    await core.events.emit({ topic: 'widget.other', summary: { n: 'x' } });
    stops.forEach((stop) => stop());
    expect(heard).toEqual(['a', 'b', 'c', 'exact b']);
  });

  it('writes none of a hand-over whose hash is taken, in the store or within the hand-over itself', async () => {
    const count = async (topic: string) =>
      (await core.db.selectFrom('events').select('id').where('topic', '=', topic).execute()).length;
    await core.events.emit({ topic: 'widget.batch', hash: 'h-2' });
    const fresh = Array.from({ length: 1500 }, (_, i) => ({ topic: 'widget.batch', hash: `b-${i}` }));
    await expect(
      core.events.emitMany([...fresh, { topic: 'widget.batch', hash: 'h-2' }]),
    ).rejects.toMatchObject({ status: 409, message: 'An event with hash h-2 already exists' });
    await expect(
      core.events.emitMany([
        { topic: 'widget.batch', hash: 'h-3' },
        { topic: 'widget.batch', hash: 'h-3' },
      ]),
    ).rejects.toMatchObject({ status: 409, message: 'An event with hash h-3 already exists' });
    expect(await count('widget.batch')).toBe(1);
    // The refusal leaves the bus writing: the next hand-over is stored.
    await core.events.emitMany(fresh);
    expect(await count('widget.batch')).toBe(1501);
  });

  it('writes hand-overs that arrive together in one go, in order, failing only one whose hash is taken', async () => {
    await core.events.emit({ topic: 'widget.stream', hash: 's-taken' });
    const heard: string[] = [];
    const stop = core.events.subscribe(
      'widget.stream',
      (message) => void heard.push(message.summary.n as string),
    );
    // Not awaited one by one: a service emitting an event per change, many at once.
    const emits = Array.from({ length: 200 }, (_, i) =>
      core.events.emit({
        topic: 'widget.stream',
        summary: { n: String(i) },
        hash: i === 100 ? 's-taken' : undefined,
      }),
    );
    const outcomes = await Promise.allSettled(emits);
    stop();
    expect(
      outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.status),
    ).toEqual([409]);
    expect(outcomes[100].status).toBe('rejected');
    const expected = Array.from({ length: 200 }, (_, i) => String(i)).filter((n) => n !== '100');
    expect(heard).toEqual(expected);
    const stored = await core.db
      .selectFrom('events')
      .select('summary')
      .where('topic', '=', 'widget.stream')
      .orderBy('creation_order')
      .execute();
    expect(stored.slice(1).map((row) => row.summary.n)).toEqual(expected);
  });

  it('creates project schemas with every addon project migration', async () => {
    const res = await core.request('POST', '/api/addons/widgets/1.2.0/api/widget-projects/Demo_1');
    expect(res.status).toBe(204);
    const parts = await core.db.withSchema('project_demo_1').selectFrom('parts').select('name').execute();
    expect(parts).toEqual([{ name: 'bolt' }]);
    const history = await core.db
      .selectFrom('addon_migrations')
      .select(['addon', 'name'])
      .where('schema_name', '=', 'project_demo_1')
      .execute();
    expect(history).toEqual([{ addon: 'widgets', name: '0001_parts' }]);
  });

  it('publishes an OpenAPI document with every route tagged by its addon', async () => {
    const res = await core.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths['/api/addons/widgets/1.2.0/api/widgets'].post.tags).toEqual(['Widgets']);
    expect(res.body.paths['/api/addons/gadgets/0.1.0/count'].get.tags).toEqual(['Gadgets']);
  });
});

describe('the client address', () => {
  const caller = '/api/addons/widgets/1.2.0/api/widgets-caller';
  const ask = (core: TestCore, remoteAddress: string) =>
    core.app.inject({ url: caller, remoteAddress, headers: { 'x-forwarded-for': '203.0.113.7' } });

  it("is the connection's own unless TRUST_PROXY names the proxy it came through", async () => {
    const extraAddons = [await importAddon(join(fixtures, 'widgets'), false)];
    const direct = await bootTestCore({ addons: [], extraAddons });
    const proxied = await bootTestCore({ addons: [], extraAddons, config: { trustProxy: '10.0.0.0/8' } });
    try {
      expect((await ask(direct, '10.1.2.3')).json()).toEqual({ ip: '10.1.2.3' });
      expect((await ask(proxied, '10.1.2.3')).json()).toEqual({ ip: '203.0.113.7' });
      // A client outside the named proxies cannot choose its address with the header.
      expect((await ask(proxied, '198.51.100.9')).json()).toEqual({ ip: '198.51.100.9' });
    } finally {
      await direct.close();
      await proxied.close();
    }
  });
});

describe('the production bundle', () => {
  it('switches an addon off, and its dependants with it, and their routes are gone', async () => {
    const extraAddons = [
      await importAddon(join(fixtures, 'widgets'), false),
      await importAddon(join(fixtures, 'gadgets'), false),
    ];
    const first = await bootTestCore({ addons: ['gadgets'], extraAddons });
    // Same storage, new process: write the bundle, then boot a second core on the same database.
    await first.db
      .insertInto('bundles')
      .values({
        name: 'prod',
        is_production: true,
        data: JSON.stringify({ addons: { widgets: null, gadgets: '0.1.0' } }),
      })
      .execute();
    const { createServer } = await import('../src/server.js');
    const second = await createServer({
      config: first.config,
      database: { ...first.database, close: async () => undefined },
      only: ['gadgets'],
      extraAddons,
    });
    try {
      expect(second.addons.find((a) => a.name === 'gadgets')).toMatchObject({
        isBroken: true,
        reason: 'needs widgets, which is not enabled',
      });
      const gone = await second.app.inject({ method: 'GET', url: '/api/addons/gadgets/0.1.0/count' });
      expect(gone.statusCode).toBe(404);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('an addon package that cannot be imported', () => {
  it('is listed as broken with the reason while the rest of the server runs', async () => {
    const broken = {
      definition: { name: 'halfdone', version: '0.0.0', title: 'halfdone' },
      directory: fixtures,
      internal: false,
      loadError: 'Cannot find module index.ts',
    };
    const core = await bootTestCore({
      addons: ['halfdone', 'widgets'],
      extraAddons: [broken, await importAddon(join(fixtures, 'widgets'), false)],
    });
    try {
      expect(core.addons.find((a) => a.name === 'halfdone')).toMatchObject({
        isBroken: true,
        reason: 'could not be loaded: Cannot find module index.ts',
      });
      expect(
        (await core.request('POST', '/api/addons/widgets/1.2.0/api/widgets', { body: { name: 'ok' } }))
          .status,
      ).toBe(201);
    } finally {
      await core.close();
    }
  });
});

describe('updating stored events', () => {
  it('changes status and payload, broadcasts the change, and answers false for a missing event', async () => {
    const core = await bootTestCore({ addons: [] });
    try {
      const { id } = await core.events.emit({
        topic: 'job.render',
        status: 'pending',
        payload: { frames: 10 },
      });
      const heard: EventMessage[] = [];
      core.events.subscribe('job.*', (m) => void heard.push(m));
      expect(await core.events.update(id, { status: 'in_progress', progress: 40 })).toBe(true);
      expect(heard).toEqual([expect.objectContaining({ id, status: 'in_progress', progress: 40 })]);
      await core.events.update(id, { status: 'finished', payload: { frames: 10, done: true } });
      expect(await core.events.get(id)).toMatchObject({
        status: 'finished',
        payload: { frames: 10, done: true },
      });
      expect(await core.events.update('0'.repeat(32), { status: 'failed' })).toBe(false);
    } finally {
      await core.close();
    }
  });
});
