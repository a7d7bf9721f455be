import type { TestCore } from '@pipewright/core/testing';
import { usersRef } from '../src/api.js';

export const PASSWORD = 'correct horse battery';

/** Put a user straight into the directory (as onboarding or an admin would have). */
export async function seedUser(
  core: TestCore,
  name: string,
  data: Record<string, unknown> = {},
  password = PASSWORD,
) {
  const users = core.services.get(usersRef);
  await users.create({ name, password, data });
}

export async function login(core: TestCore, name: string, password = PASSWORD): Promise<string> {
  const res = await core.request('POST', '/api/auth/login', { body: { name, password } });
  if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.status} ${res.text}`);
  return res.body.token;
}
