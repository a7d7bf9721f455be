import type { PipewrightServer } from '@pipewright/core';
import { usersRef } from '@pipewright/plugin-users/api';

/** Create the bench's administrator in a fresh server and log in: the bearer token. */
export async function benchAdmin(server: PipewrightServer): Promise<string> {
  const users = server.services.get(usersRef);
  await users.create({ name: 'bench', password: 'bench password', data: { isAdmin: true } });
  const login = await server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { name: 'bench', password: 'bench password' },
  });
  return login.json().token;
}
