import type { PipewrightServer } from '@pipewright/core';
import type { UserDirectory } from '@pipewright/sdk';

/** Create the bench's administrator in a fresh server and log in: the bearer token. */
export async function benchAdmin(server: PipewrightServer): Promise<string> {
  const users = server.services.get('users') as UserDirectory;
  await users.create({ name: 'bench', password: 'bench password', data: { isAdmin: true } });
  const login = await server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { name: 'bench', password: 'bench password' },
  });
  return login.json().token;
}
