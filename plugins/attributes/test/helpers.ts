import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importAddon } from '@pipewright/core';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import type { ServiceRef } from '@pipewright/sdk';
import { PASSWORD } from './fixtures/attribute-users/index.js';
import { attributesRef } from '../src/api.js';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/attribute-users');

export const fixtureAddons = async () => [await importAddon(fixture, false)];

/** A core with the attributes addon and two users, root (admin) and alice, logged in. */
export async function bootWithUsers(): Promise<{ core: TestCore; admin: string; artist: string }> {
  const core = await bootTestCore({
    addons: ['attributes', 'attribute-users'],
    extraAddons: await fixtureAddons(),
  });
  return { core, admin: await login(core, 'root'), artist: await login(core, 'alice') };
}

export async function login(core: TestCore, name: string): Promise<string> {
  const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
  if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.status} ${res.text}`);
  return res.body.token;
}

export const libraryOf = (core: { services: { get<T>(ref: ServiceRef<T>): T } }) =>
  core.services.get(attributesRef);
