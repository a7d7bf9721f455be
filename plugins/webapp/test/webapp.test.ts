import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { isServerPath, webAppRoutes } from '../src/routes.js';

describe('the webapp addon in a core', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await bootTestCore({ addons: ['webapp'] });
  });
  afterAll(() => core.close());

  it('answers an HTML page at / and at client-side routes, built or not', async () => {
    for (const url of ['/', '/addon/sample/sample_remote', '/projects?x=1']) {
      const res = await core.request('GET', url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
    }
  });

  it("leaves the server's own paths, other methods and missing files to the core's JSON 404", async () => {
    for (const [method, url] of [
      ['GET', '/api/unknown'],
      ['GET', '/api'],
      ['GET', '/openapi.json/x'],
      ['GET', '/graphql'],
      ['GET', '/ws/live'],
      ['GET', '/static/js/gone.123.js'],
      ['POST', '/somewhere'],
      ['DELETE', '/'],
    ] as const) {
      const res = await core.request(method, url);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 404 });
    }
  });
});

// The same routes on a bare Fastify set up the way the core sets it up (sendFile decorated, a JSON 404),
// against a dist folder the test controls.
async function bareServer(dist: string): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(fastifyStatic, { root: dist, serve: false });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ code: 404 }));
  await app.register(webAppRoutes(app.log, dist) as unknown as (scope: FastifyInstance) => Promise<void>);
  return app;
}

describe('webAppRoutes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pipewright-webapp-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('serves the built files, and index.html for routes of the app', async () => {
    const dist = join(dir, 'built');
    await mkdir(join(dist, 'static'), { recursive: true });
    await writeFile(join(dist, 'index.html'), '<title>app</title>');
    await writeFile(join(dist, 'static', 'main.abc.js'), 'console.log(1)');
    const app = await bareServer(dist);
    const chunk = await app.inject('/static/main.abc.js');
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toContain('immutable');
    for (const url of ['/', '/deep/route']) {
      const page = await app.inject(url);
      expect(page.statusCode).toBe(200);
      expect(page.body).toBe('<title>app</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
    expect((await app.inject('/api/x')).statusCode).toBe(404);
    await app.close();
  });

  it('explains how to build the app when dist/ is missing', async () => {
    const app = await bareServer(join(dir, 'never-built'));
    const page = await app.inject('/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('npm run build -w @pipewright/frontend-host');
    await app.close();
  });

  it('tells server paths from app paths', () => {
    expect(isServerPath('/api/projects')).toBe(true);
    expect(isServerPath('/addons/x/1/frontend/')).toBe(true);
    expect(isServerPath('/apiary')).toBe(false);
    expect(isServerPath('/')).toBe(false);
  });
});
