import { describe, expect, it } from '@jest/globals';
import { createServer } from '@pipewright/core';
import { bootTestCore } from '@pipewright/core/testing';
import { fixtureAddons, libraryOf, login } from './helpers.js';

// A studio's edits must survive a restart: the built-in set is seeded once, never re-applied over edits.
describe('restarting on the same database', () => {
  it('keeps studio attributes and edited built-ins, and does not bring deleted ones back', async () => {
    const extraAddons = await fixtureAddons();
    const first = await bootTestCore({ addons: ['attributes', 'attribute-users'], extraAddons });
    const second = { server: null as Awaited<ReturnType<typeof createServer>> | null };
    try {
      const token = await login(first, 'root');
      const put = (name: string, body: unknown) =>
        first.request('PUT', `/api/attributes/${name}`, { token, body });
      expect(
        (await put('keepMe', { position: 500, scope: ['task'], data: { type: 'integer', default: 3 } }))
          .status,
      ).toBe(204);
      expect((await put('dropMe', { position: 501, scope: ['task'], data: { type: 'string' } })).status).toBe(
        204,
      );
      expect((await first.request('DELETE', '/api/attributes/dropMe', { token })).status).toBe(204);
      const fps = (await first.request('GET', '/api/attributes/fps', { token })).body;
      expect(
        (await put('fps', { ...fps, position: 99, data: { ...fps.data, title: 'Frame rate', default: 24 } }))
          .status,
      ).toBe(204);

      second.server = await createServer({
        config: first.config,
        database: { ...first.database, close: async () => undefined },
        only: ['attributes', 'attribute-users'],
        extraAddons,
      });
      const library = libraryOf(second.server);
      const names = (await library.list()).map((a) => a.name);
      expect(names).toContain('keepMe');
      expect(names).not.toContain('dropMe');
      expect(names.at(-1)).toBe('keepMe');
      expect(names.at(-2)).toBe('fps');
      expect(names).toHaveLength(31);
      expect((await library.list()).find((a) => a.name === 'fps')).toMatchObject({
        position: 99,
        builtin: true,
        data: { title: 'Frame rate', default: 24 },
      });
      expect((await library.defaults('project')).fps).toBe(24);
      expect(await library.defaults('task')).toMatchObject({ keepMe: 3 });
      expect(await library.validate('task', { keepMe: 'three' }, ['attrib'])).toEqual([
        expect.objectContaining({ loc: ['attrib', 'keepMe'], type: 'type' }),
      ]);

      // With Redis, a change made through one process reaches the other's cached library.
      if (first.config.redisUrl) {
        expect(
          (await put('keepMe', { position: 500, scope: ['task'], data: { type: 'string' } })).status,
        ).toBe(204);
        let problems = await library.validate('task', { keepMe: 'three' }, ['attrib']);
        for (let i = 0; i < 50 && problems.length; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          problems = await library.validate('task', { keepMe: 'three' }, ['attrib']);
        }
        expect(problems).toEqual([]);
      }
    } finally {
      await second.server?.close();
      await first.close();
    }
  });
});
