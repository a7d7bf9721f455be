import { readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@pipewright/sdk';
import { bootTestCore, type TestCore } from '../src/testing.js';
import { usersRef } from '@pipewright/plugin-users/api';

// Every operation /openapi.json lists gets malformed input, one defect at a time (wrong types, NUL, lone surrogates,
// deep nesting, huge strings and arrays, numbers no column holds, bad percent-encoding, over-long and odd path
// parameters), as an anonymous caller, a project user and an administrator. Whatever the route, the answer must be
// a 4xx (or a success, where the odd value is legitimate) in one of AYON's shapes: never a 5xx, never Fastify's own.
// Requests go to the fixtures below (so bad values reach the database), deletions to names and ids that do not exist.

const plugins = join(dirname(fileURLToPath(import.meta.url)), '../../plugins');
const ALL_ADDONS = readdirSync(plugins).filter((name) => existsSync(join(plugins, name, 'package.json')));

type Caller = 'anonymous' | 'artist' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'artist', 'admin'];

let core: TestCore;
const tokens: Partial<Record<Caller, string>> = {};
const fixtures: Record<string, string> = {};
let doc: any;
const PASSWORD = 'a long sweep password';

let logins = 0;

/** A fresh session, from an address of its own: the sweep's failed login probes must not throttle it. */
async function logIn(caller: Caller): Promise<void> {
  const res = await core.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: `10.99.${++logins >> 8}.${logins & 255}`,
    payload: { name: caller, password: PASSWORD },
  });
  tokens[caller] = res.json().token;
  expect(tokens[caller]).toBeDefined();
}

beforeAll(async () => {
  process.env.YNPUT_CLOUD_URL = 'http://127.0.0.1:9';
  core = await bootTestCore({ addons: ALL_ADDONS });
  const users = core.services.get(usersRef);
  const people = { admin: { isAdmin: true }, artist: { accessGroups: { demo: ['artist'] } } };
  for (const [name, data] of Object.entries(people)) {
    await users.create({ name, password: PASSWORD, data });
    await logIn(name as Caller);
  }
  const admin = { token: tokens.admin };
  expect(
    (await core.request('POST', '/api/projects', { ...admin, body: { name: 'demo', code: 'demo' } })).status,
  ).toBe(201);
  const make = async (url: string, body: unknown) =>
    (await core.request('POST', url, { ...admin, body })).body.id;
  fixtures.folder_id = await make('/api/projects/demo/folders', { name: 'sh010', folderType: 'Shot' });
  fixtures.task_id = await make('/api/projects/demo/tasks', {
    name: 'anim',
    taskType: 'Animation',
    folderId: fixtures.folder_id,
    assignees: ['artist'],
  });
  doc = (await core.request('GET', '/openapi.json')).body;
}, 120_000);
afterAll(() => core?.close());

/** A value of each kind that no route should store as it is, given as raw JSON text. */
const BAD_VALUES: Record<string, string> = {
  nul: '"a\\u0000b"',
  surrogate: '"a\\ud800b"',
  hugeString: JSON.stringify('x'.repeat(20_000)),
  hugeArray: JSON.stringify(Array.from({ length: 5_000 }, (_, i) => `item${i}`)),
  deep: `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`,
  bigInteger: '18446744073709551616',
  infinite: '1e999',
  negative: '-2147483649',
  injection: `"' OR 1=1 --"`,
  object: '{"$gt": ""}',
};

/** Raw bodies that are wrong as a whole. */
const BAD_BODIES: Record<string, string> = {
  notJson: '{"name": ',
  array: '[1, 2, 3]',
  string: '"text"',
  nul: '{"name": "a\\u0000b"}',
  deep: `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  infinite: '{"version": 1e999}',
};

/** Path and query values, already percent-encoded. */
const BAD_TEXT: Record<string, string> = {
  nul: 'a%00b',
  badEncoding: '%FF%FE',
  surrogate: '%ED%A0%80',
  long: 'a'.repeat(600),
  hugeQuery: 'q'.repeat(20_000),
  bigInteger: '18446744073709551616',
  negative: '-1',
  injection: encodeURIComponent(`' OR 1=1 --`),
  dots: '..%2F..%2Fetc%2Fpasswd',
};

function resolve(schema: any): any {
  if (schema?.$ref) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()]);
  return schema ?? {};
}

let samples = 0;

/** A value the schema accepts, every property filled and every array holding one item, so one bad value placed
 * in it is what the route meets. */
function sample(schema: any, depth = 0): unknown {
  schema = resolve(schema);
  if (schema.default !== undefined && schema.default !== null) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return sample(alternatives.find((s: any) => s.type !== 'null') ?? alternatives[0], depth);
  switch (schema.type) {
    case 'object':
      return depth > 4
        ? {}
        : Object.fromEntries(
            Object.entries(schema.properties ?? {}).map(([key, inner]) => [key, sample(inner, depth + 1)]),
          );
    case 'array':
      return depth > 4 ? [] : [sample(schema.items, depth + 1)];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      if (schema.pattern === '^[0-9a-f]{32}$') return newId();
      if (schema.format === 'date-time') return new Date().toISOString();
      // Unique, so a probe is never refused only because an earlier one created the same name.
      return `sweep${++samples}`.padEnd(schema.minLength ?? 0, 'x');
    default:
      return 'sweep';
  }
}

/** Where the leaves of a sampled value are, as paths of keys and indexes. */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [path];
  const entries = Object.entries(value);
  if (entries.length === 0) return [path];
  return entries.flatMap(([key, inner]) =>
    leaves(inner, [...path, Array.isArray(value) ? Number(key) : key]),
  );
}

const SLOT = '__sweep_bad_value__';

/** The sampled body as JSON text with the value at one path replaced by raw JSON text. */
function withBadValue(base: unknown, path: (string | number)[], raw: string): string {
  if (path.length === 0) return raw;
  const copy = structuredClone(base) as any;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  target[path[path.length - 1]] = SLOT;
  return JSON.stringify(copy).replace(`"${SLOT}"`, raw);
}

/** The fixture a route may use for a path parameter, or a name or id that does not exist: deletions never meet a
 * fixture, and users are never the sweep's own callers, whose sessions it needs. */
function pathValue(name: string, method: string): string {
  const real = method !== 'DELETE';
  if (name === 'project_name') return real ? 'demo' : 'no_such_project';
  if (name === 'user_name') return method === 'GET' ? 'artist' : 'no_such_user';
  if (real && fixtures[name]) return fixtures[name];
  if (name.endsWith('_id') || name === 'id') return newId();
  return 'nothing';
}

interface Probe {
  label: string;
  url: string;
  body?: string;
}

function probes(method: string, path: string, operation: any): Probe[] {
  const parameters: any[] = operation.parameters ?? [];
  const pathNames = parameters.filter((p) => p.in === 'path').map((p) => p.name as string);
  const fill = (override: Record<string, string> = {}) =>
    path.replace(/\{([^}]+)\}/g, (_, name) => override[name] ?? encodeURIComponent(pathValue(name, method)));
  const list: Probe[] = [];
  for (const name of pathNames) {
    for (const [kind, text] of Object.entries(BAD_TEXT)) {
      if (kind !== 'hugeQuery') list.push({ label: `path ${name} ${kind}`, url: fill({ [name]: text }) });
    }
  }
  for (const parameter of parameters.filter((p) => p.in === 'query')) {
    for (const [kind, text] of Object.entries(BAD_TEXT)) {
      list.push({ label: `query ${parameter.name} ${kind}`, url: `${fill()}?${parameter.name}=${text}` });
    }
  }
  if (method === 'GET' || method === 'HEAD') return list;
  const schema = resolve(operation.requestBody?.content?.['application/json']?.schema);
  for (const [kind, body] of Object.entries(BAD_BODIES))
    list.push({ label: `body ${kind}`, url: fill(), body });
  if (!operation.requestBody?.content?.['application/json']) return list;
  for (const path of leaves(sample(schema)).slice(0, 16)) {
    for (const [kind, value] of Object.entries(BAD_VALUES)) {
      const body = withBadValue(sample(schema), path, value);
      list.push({ label: `body.${path.join('.')} ${kind}`, url: fill(), body });
    }
  }
  return list;
}

/** Why an answer is wrong, or null when it is one of AYON's shapes (GraphQL's own for /graphql, as AYON's). */
function defect(path: string, status: number, text: string, type: string): string | null {
  if (status >= 500) return `status ${status}`;
  if (status < 400) return null;
  if (!type.includes('json')) return `error answered as ${type || 'no content type'}`;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return 'error body is not JSON';
  }
  if (status === 422 && typeof body.detail === 'string' && Array.isArray(body.errors)) {
    const wellFormed = body.errors.every(
      (e: any) => Array.isArray(e.loc) && typeof e.msg === 'string' && typeof e.type === 'string',
    );
    return wellFormed ? null : 'a 422 problem is not {loc, msg, type}';
  }
  if (body.code === status && typeof body.detail === 'string') return null;
  if (
    path === '/graphql' &&
    Array.isArray(body.errors) &&
    body.errors.every((e: any) => typeof e.message === 'string')
  )
    return null;
  return `error body outside AYON's shapes: ${text.slice(0, 120)}`;
}

describe('bad-input sweep over /openapi.json', () => {
  it('never answers 5xx or an error outside AYON shapes, whoever calls', async () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(
      ([path, ops]) =>
        Object.entries(ops).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );
    expect(operations.length).toBeGreaterThan(250);
    const defects: string[] = [];
    const statuses: Record<string, number> = {};
    let refused = 0;
    let sent = 0;
    for (const { method, path, operation } of operations) {
      for (const probe of probes(method, path, operation)) {
        for (const caller of CALLERS) {
          const send = () =>
            core.app.inject({
              method: method as any,
              url: probe.url,
              headers: {
                'content-type': 'application/json',
                ...(tokens[caller] ? { authorization: `Bearer ${tokens[caller]}` } : {}),
              },
              payload: probe.body,
            });
          let res = await send();
          // A probe that was a valid logout (or ended sessions) took the caller's session: log in again and resend.
          if (res.statusCode === 401 && caller !== 'anonymous') {
            const me = await core.request('GET', '/api/users/me', { token: tokens[caller] });
            if (me.status === 401) {
              await logIn(caller);
              res = await send();
            }
          }
          sent++;
          statuses[`${caller} ${res.statusCode}`] = (statuses[`${caller} ${res.statusCode}`] ?? 0) + 1;
          // The login, and the guest routes (a guest link's session, not the user's, opens them), may refuse anyone.
          const ownSession = path === '/api/auth/login' || path.startsWith('/api/guest/');
          if (res.statusCode === 401 && caller !== 'anonymous' && !ownSession) refused++;
          const problem = defect(path, res.statusCode, res.body, String(res.headers['content-type'] ?? ''));
          if (problem) defects.push(`${method} ${path} [${probe.label}] as ${caller}: ${problem}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(10_000);
    // The sweep means something only if its callers' probes reach the routes: logged-in callers are never refused.
    expect(refused).toBe(0);
    if (process.env.SWEEP_STATUSES) console.log(statuses);
    expect({ count: defects.length, first: defects.slice(0, 80) }).toEqual({ count: 0, first: [] });
  }, 900_000);
});
