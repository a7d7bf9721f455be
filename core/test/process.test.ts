import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serverProcessSite, startServerProcess as start, type ServerProcessSite } from '../src/testing.js';

// The real thing: `npm start`'s entry point as its own process, talked to over HTTP.

const stopped = (child: ChildProcess) =>
  new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

describe('the server process', () => {
  let site: ServerProcessSite;
  let env: NodeJS.ProcessEnv;
  let base: string;

  beforeAll(async () => {
    site = await serverProcessSite('process', { LOG_LEVEL: 'info' });
    ({ env, base } = site);
  });
  afterAll(() => site.remove());

  it('starts, onboards the first administrator, stops on SIGTERM and keeps the session across a restart', async () => {
    let server = await start(env);
    const info = await (await fetch(`${base}/api/info`)).json();
    expect(info).toMatchObject({ version: '1.11.3', noAdminUser: true });

    const init = await fetch(`${base}/api/onboarding/initialize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ adminName: 'admin', adminPassword: 'a strong password' }),
    });
    expect(init.status).toBe(200);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'admin', password: 'a strong password' }),
    });
    const { token } = await login.json();
    expect(
      (await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);

    const exit = stopped(server);
    server.kill('SIGTERM');
    expect(await exit).toBe(0);

    server = await start(env);
    try {
      const me = await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect((await me.json()).name).toBe('admin');
      expect((await (await fetch(`${base}/api/info`)).json()).noAdminUser).toBe(false);
    } finally {
      const exited = stopped(server);
      server.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
