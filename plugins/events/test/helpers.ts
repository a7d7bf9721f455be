import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importAddon } from '@pipewright/core';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { PASSWORD, SERVICE_KEY } from './fixtures/event-users/index.js';

export { SERVICE_KEY };

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/event-users');

export interface Setup {
  core: TestCore;
  /** Bearer tokens by user name: alice and bob (artists), boss (manager), root (admin). */
  tokens: Record<'alice' | 'bob' | 'boss' | 'root', string>;
}

export async function boot(): Promise<Setup> {
  const core = await bootTestCore({
    addons: ['events', 'event-users'],
    extraAddons: [await importAddon(fixture, false)],
  });
  const tokens = {} as Setup['tokens'];
  for (const name of ['alice', 'bob', 'boss', 'root'] as const) {
    const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
    if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.status} ${res.text}`);
    tokens[name] = res.body.token;
  }
  return { core, tokens };
}
