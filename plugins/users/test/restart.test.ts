import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createServer, readConfig } from '@pipewright/core';
import { usersRef } from '../src/api.js';

// The embedded database must survive a restart: users and their sessions are still there afterwards.
describe('restarting on the embedded database', () => {
  let dataDir: string;
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  // Two servers one after the other on an on-disk database, each creating or opening it: slower than most tests.
  it('keeps users and sessions', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pipewright-restart-'));
    const config = { ...readConfig({ LOG_LEVEL: 'warn' }), dataDir, databaseUrl: null, redisUrl: null };

    const first = await createServer({ config, only: ['users'] });
    let token: string;
    try {
      const users = first.services.get(usersRef);
      await first.db
        .transaction()
        .execute(() => users.create({ name: 'ada', password: 'persistent secret', data: { isAdmin: true } }));
      const login = await first.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { name: 'ada', password: 'persistent secret' },
      });
      token = login.json().token;
    } finally {
      await first.close();
    }

    const second = await createServer({ config, only: ['users'] });
    try {
      const me = await second.app.inject({
        method: 'GET',
        url: '/api/users/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ name: 'ada', data: { isAdmin: true } });
    } finally {
      await second.close();
    }
  }, 90_000);
});
