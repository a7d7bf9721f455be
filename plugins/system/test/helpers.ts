import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestCore } from '@pipewright/core/testing';
import type { AddonDefinition } from '@pipewright/sdk';
import { usersRef } from '@pipewright/plugin-users/api';

export const PASSWORD = 'correct horse battery';

/** Create a user through the users service. */
export async function createUser(core: TestCore, name: string, data: Record<string, unknown>): Promise<void> {
  const users = core.services.get(usersRef);
  await users.create({ name, password: PASSWORD, data });
}

/** Create a user and log in; answers the token. */
export async function seed(core: TestCore, name: string, data: Record<string, unknown>): Promise<string> {
  await createUser(core, name, data);
  const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
  if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.status} ${res.text}`);
  return res.body.token as string;
}

/** An addon defined in a test, loaded as an installed one. */
export const fixture = (definition: AddonDefinition) => ({
  definition,
  directory: dirname(fileURLToPath(import.meta.url)),
  internal: false,
});

/** Stored events of a topic, oldest first. */
export const eventsOf = (core: TestCore, topic: string) =>
  core.db.selectFrom('events').selectAll().where('topic', '=', topic).orderBy('creation_order').execute();
