import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { usersRef } from '@pipewright/plugin-users/api';

// Every type, field and field argument of AYON 1.11.3's GraphQL schema (derived from its source, see the file's
// "source"), checked against the schema this server answers introspection with, every addon that contributes to
// it running. Clients name these in fragments and variables, so a missing one is a broken client.
interface Reference {
  types: Record<string, { kind: string; fields: Record<string, string[]>; interfaces?: string[] }>;
}
const reference: Reference = JSON.parse(
  readFileSync(new URL('./ayon-1.11.3-schema.json', import.meta.url), 'utf8'),
);

const KIND: Record<string, string> = {
  type: 'OBJECT',
  interface: 'INTERFACE',
  input: 'INPUT_OBJECT',
  enum: 'ENUM',
};

const INTROSPECTION = `{ __schema { types {
  name kind
  interfaces { name }
  fields { name args { name } }
  inputFields { name }
  enumValues { name }
} } }`;

let core: TestCore;
let token: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['graphql', 'activities', 'lists', 'reviewables'] });
  const users = core.services.get(usersRef);
  await core.db
    .transaction()
    .execute(() =>
      users.create({ name: 'boss', password: 'correct horse battery', data: { isAdmin: true } }),
    );
  const login = await core.request('POST', '/api/auth/login', {
    body: { name: 'boss', password: 'correct horse battery' },
  });
  token = login.body.token;
});

afterAll(async () => {
  await core?.close();
});

describe('schema parity with AYON 1.11.3', () => {
  it('has every type, field and argument of the reference', async () => {
    const res = await core.request('POST', '/graphql', { token, body: { query: INTROSPECTION } });
    expect(res.status).toBe(200);
    const types = new Map<string, any>(res.body.data.__schema.types.map((t: any) => [t.name, t]));
    const missing: string[] = [];
    for (const [name, expected] of Object.entries(reference.types)) {
      const type = types.get(name);
      if (!type) {
        missing.push(`type ${name}`);
        continue;
      }
      if (type.kind !== KIND[expected.kind])
        missing.push(`${name} is ${type.kind}, not ${KIND[expected.kind]}`);
      for (const iface of expected.interfaces ?? [])
        if (!type.interfaces?.some((i: any) => i.name === iface)) missing.push(`${name} implements ${iface}`);
      const members: { name: string; args?: { name: string }[] }[] =
        type.fields ?? type.inputFields ?? type.enumValues ?? [];
      for (const [field, args] of Object.entries(expected.fields)) {
        const found = members.find((member) => member.name === field);
        if (!found) {
          missing.push(`${name}.${field}`);
          continue;
        }
        for (const arg of args)
          if (!found.args?.some((a) => a.name === arg)) missing.push(`${name}.${field}(${arg})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
