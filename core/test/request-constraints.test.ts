import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Id, INDEXED_KEY_MAX_LENGTH } from '@pipewright/sdk';
import { bootTestCore, type TestCore } from '../src/testing.js';

// No request constraint stricter than AYON's: where AYON 1.11.3 accepts a value, so must we. The fixture records,
// per AYON route and field, which constraints AYON's request models and parameters apply (facts only; regenerate
// it with scripts/ayon-request-constraints.py). Each constraint in our /openapi.json on a field AYON also has is
// compared with AYON's: a pattern or enum AYON lacks, missing enum values or a tighter bound fails the area.
// Routes and fields only Pipewright has are out of scope, as are fields AYON checks in a custom validator.

const here = dirname(fileURLToPath(import.meta.url));
const plugins = join(here, '../../plugins');
const ALL_ADDONS = readdirSync(plugins).filter((name) => existsSync(join(plugins, name, 'package.json')));

interface Facts {
  pattern?: boolean;
  patternMatchesEmpty?: boolean;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  validator?: boolean;
}
interface AyonRoute {
  fields: Record<string, Facts>;
  unresolved?: string[];
}
const AYON: Record<string, AyonRoute> = JSON.parse(
  readFileSync(join(here, 'fixtures/ayon-request-constraints.json'), 'utf8'),
).routes;

/** A stricter constraint found: where (AYON's route key and our field path), which kind, and our reading. */
interface Finding {
  route: string;
  field: string;
  kind: string;
  ours: Ours;
}

/**
 * Accepted differences, each with why. Each keeps out a value AYON cannot use either (it fails on it, usually
 * with a 500 from PostgreSQL), so refusing it early changes no outcome that works.
 */
const EXCEPTIONS: { accepts: (f: Finding) => boolean; reason: string }[] = [
  {
    accepts: (f) => /^(path|query)\.project(_name)?$/.test(f.field) && f.kind === 'maxLength',
    reason:
      'a project lives in a PostgreSQL schema named after it, and identifiers stop at 63 bytes: no longer name exists',
  },
  {
    accepts: (f) => f.kind === 'maxLength' && f.ours.maxLength === INDEXED_KEY_MAX_LENGTH,
    reason:
      'stored as (part of) a btree index key, which PostgreSQL refuses over 2,704 bytes (AYON answers 500): ' +
      'held at INDEXED_KEY_MAX_LENGTH, 500 characters of up to four bytes; the constant names such fields',
  },
  {
    accepts: (f) => f.kind === 'pattern' && f.ours.patternText === Id.pattern,
    reason:
      "a 32-hex id: the value names a row of a uuid column (AYON's tables are uuid there too, and PostgreSQL " +
      'refuses any other text, which AYON answers with a 500)',
  },
  {
    accepts: (f) =>
      f.route.startsWith('POST /api/anatomy/presets/') && f.field === 'body.name' && f.kind === 'minLength',
    reason: 'a preset is addressed by its name in the path, and an empty name could never be addressed again',
  },
  {
    accepts: (f) =>
      f.route === 'POST /api/projects' &&
      ((f.field === 'body.name' && ['pattern', 'minLength', 'maxLength'].includes(f.kind)) ||
        (f.field === 'body.code' && f.kind === 'pattern')),
    reason:
      "AYON's deploy model leaves name and code free, but its project entity checks both against the project " +
      'name rule when it saves the project (and the name becomes the schema name, see above)',
  },
  {
    accepts: (f) =>
      f.route === 'POST /api/onboarding/initialize' &&
      f.field === 'body.adminName' &&
      ['pattern', 'minLength'].includes(f.kind),
    reason: "the administrator's name becomes a user name, which AYON's user entity checks by the same rule",
  },
  {
    accepts: (f) =>
      f.route.includes(' /api/desktop/') &&
      /^(path|body)\.filename$/.test(f.field) &&
      ['pattern', 'maxLength'].includes(f.kind),
    reason:
      'the name of a file on disk: separators, NUL and dot segments would leave the folder (AYON joins them ' +
      'into a path unchecked), and file systems stop a name at 255 bytes',
  },
];

// ----------------------------------------------------------------------------------------------------------------
// Our side: constraints per field, read from /openapi.json

/** A field's constraints; `integer` tells how exclusive bounds compare. */
type Ours = Facts & { integer?: boolean; nullable?: boolean; patternText?: string };

type Schema = Record<string, any>;

const camelize = (segment: string) => segment.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** AYON's models accept snake_case and camelCase names alike, so body paths compare camelized. */
const fieldKey = (path: string) => (path.startsWith('body') ? path.split('.').map(camelize).join('.') : path);

class Walker {
  readonly fields = new Map<string, Ours[]>();
  constructor(private readonly components: Record<string, Schema>) {}

  resolve(schema: Schema): Schema {
    let current = schema;
    for (let hops = 0; current?.$ref && hops < 10; hops++)
      current = this.components[current.$ref.replace('#/components/schemas/', '')];
    return current ?? {};
  }

  walk(raw: Schema, path: string, depth = 0): void {
    if (depth > 12) return;
    const schema = this.resolve(raw);
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) return this.walkAlternatives(schema, alternatives, path, depth);
    for (const part of schema.allOf ?? []) this.walk(part, path, depth + 1);
    this.record(path, schema);
    for (const [name, sub] of Object.entries<Schema>(schema.properties ?? {}))
      this.walk(sub, `${path}.${name}`, depth + 1);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
      this.walk(schema.additionalProperties, `${path}.*`, depth + 1);
    for (const sub of Object.values<Schema>(schema.patternProperties ?? {}))
      this.walk(sub, `${path}.*`, depth + 1);
    if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items))
      this.walk(schema.items, `${path}[]`, depth + 1);
  }

  /**
   * A value passes a union when it passes any member, so the union constrains only what all members constrain:
   * walk each member on its own and keep the loosest reading of each field.
   */
  private walkAlternatives(schema: Schema, members: Schema[], path: string, depth: number): void {
    const resolved = members.map((m) => this.resolve(m)).filter((m) => m.type !== 'null');
    const consts = resolved.filter((m) => 'const' in m || m.enum);
    if (consts.length === resolved.length && resolved.length > 0) {
      this.record(path, { ...schema, anyOf: undefined, enum: resolved.flatMap((m) => m.enum ?? [m.const]) });
      return;
    }
    const branches = resolved.map((member) => {
      const branch = new Walker(this.components);
      branch.walk(member, path, depth + 1);
      return branch.fields;
    });
    const paths = new Set(branches.flatMap((b) => [...b.keys()]));
    for (const p of paths) {
      // A field some member leaves unconstrained (or lacks) is unconstrained for the union.
      const readings = branches.map((b) => b.get(p));
      const merged = readings.every(Boolean) ? loosest(readings.map((r) => merge(r!))) : {};
      this.push(p, merged);
    }
  }

  private record(path: string, schema: Schema): void {
    const facts: Ours = {};
    if (schema.pattern) Object.assign(facts, { pattern: true, patternText: schema.pattern });
    if (schema.enum) facts.enum = schema.enum;
    else if ('const' in schema) facts.enum = [schema.const];
    for (const key of ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const)
      if (typeof schema[key] === 'number') facts[key] = schema[key];
    for (const key of ['exclusiveMinimum', 'exclusiveMaximum'] as const)
      if (typeof schema[key] === 'number') facts[key] = schema[key];
    if (schema.type === 'integer') facts.integer = true;
    this.push(path, facts);
  }

  private push(path: string, facts: Ours): void {
    const key = fieldKey(path);
    this.fields.set(key, [...(this.fields.get(key) ?? []), facts]);
  }
}

/** allOf parts and repeated visits of one field all apply: the strictest reading holds. */
function merge(readings: Ours[]): Ours {
  return Object.assign({}, ...readings);
}

/** Of several union members, a bound holds only when every member has it, at its loosest. */
function loosest(readings: Ours[]): Ours {
  const out: Ours = {};
  const all = <K extends keyof Ours>(key: K) => readings.every((r) => r[key] !== undefined);
  if (all('pattern')) out.pattern = true;
  if (new Set(readings.map((r) => r.patternText)).size === 1) out.patternText = readings[0].patternText;
  if (all('enum')) out.enum = readings.flatMap((r) => r.enum!);
  for (const key of ['minLength', 'minimum', 'exclusiveMinimum', 'minItems'] as const)
    if (all(key)) out[key] = Math.min(...readings.map((r) => r[key]!));
  for (const key of ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems'] as const)
    if (all(key)) out[key] = Math.max(...readings.map((r) => r[key]!));
  if (readings.every((r) => r.integer)) out.integer = true;
  return out;
}

// ----------------------------------------------------------------------------------------------------------------
// Comparing

/** Lower and upper bounds as inclusive numbers (integers turn exclusive bounds into inclusive ones). */
function lower(f: Facts, integer: boolean): number | undefined {
  const candidates = [
    f.minimum,
    f.exclusiveMinimum === undefined ? undefined : f.exclusiveMinimum + (integer ? 1 : 1e-9),
  ];
  const present = candidates.filter((v): v is number => v !== undefined);
  return present.length ? Math.max(...present) : undefined;
}
function upper(f: Facts, integer: boolean): number | undefined {
  const candidates = [
    f.maximum,
    f.exclusiveMaximum === undefined ? undefined : f.exclusiveMaximum - (integer ? 1 : 1e-9),
  ];
  const present = candidates.filter((v): v is number => v !== undefined);
  return present.length ? Math.min(...present) : undefined;
}

/** What about `ours` is stricter than `ayon`, as readable findings. */
function stricter(field: string, ours: Ours, ayon: Facts): string[] {
  const found: string[] = [];
  const integer = Boolean(ours.integer);
  if (ours.pattern && !ayon.pattern) found.push('pattern: ours has one, AYON none');
  if (ours.enum) {
    if (!ayon.enum) found.push(`enum: ours [${ours.enum.join(', ')}], AYON none`);
    else {
      const missing = ayon.enum.filter((v) => !ours.enum!.includes(v));
      if (missing.length) found.push(`enum: ours lacks AYON's [${missing.join(', ')}]`);
    }
  }
  // A path parameter is never empty (an empty segment is another route), nor is a value AYON's pattern refuses empty.
  const emptyImpossible = field.startsWith('path.') || (ayon.pattern && ayon.patternMatchesEmpty === false);
  const ayonMinLength = ayon.minLength ?? (emptyImpossible ? 1 : 0);
  if (ours.minLength !== undefined && ours.minLength > ayonMinLength)
    found.push(`minLength: ours ${ours.minLength}, AYON ${ayon.minLength ?? 'none'}`);
  if (ours.maxLength !== undefined && (ayon.maxLength === undefined || ours.maxLength < ayon.maxLength))
    found.push(`maxLength: ours ${ours.maxLength}, AYON ${ayon.maxLength ?? 'none'}`);
  if (ours.minItems !== undefined && ours.minItems > (ayon.minItems ?? 0))
    found.push(`minItems: ours ${ours.minItems}, AYON ${ayon.minItems ?? 'none'}`);
  if (ours.maxItems !== undefined && (ayon.maxItems === undefined || ours.maxItems < ayon.maxItems))
    found.push(`maxItems: ours ${ours.maxItems}, AYON ${ayon.maxItems ?? 'none'}`);
  const [ourLow, ayonLow] = [lower(ours, integer), lower(ayon, integer)];
  if (ourLow !== undefined && (ayonLow === undefined || ourLow > ayonLow))
    found.push(`lower bound: ours ${ourLow}, AYON ${ayonLow ?? 'none'}`);
  const [ourHigh, ayonHigh] = [upper(ours, integer), upper(ayon, integer)];
  if (ourHigh !== undefined && (ayonHigh === undefined || ourHigh < ayonHigh))
    found.push(`upper bound: ours ${ourHigh}, AYON ${ayonHigh ?? 'none'}`);
  return found;
}

const templateKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
const pathNames = (path: string) => [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);

const AYON_BY_TEMPLATE = new Map(
  Object.entries(AYON).map(([key, route]) => {
    const [method, path] = key.split(' ');
    return [templateKey(method, path), { key, path, route }];
  }),
);

interface AreaResult {
  compared: number;
  skipped: number;
  accepted: string[];
  findings: string[];
}

/** Every constraint of ours on a route and field AYON also has, compared; findings grouped by area. */
function compareDocument(document: Schema): Map<string, AreaResult> {
  const areas = new Map<string, AreaResult>();
  const components = document.components?.schemas ?? {};
  for (const [path, operations] of Object.entries<Schema>(document.paths)) {
    for (const [method, operation] of Object.entries<Schema>(operations)) {
      const ayon = AYON_BY_TEMPLATE.get(templateKey(method, path));
      if (!ayon || typeof operation !== 'object') continue;
      const area = path.split('/')[2] ?? '';
      const result = areas.get(area) ?? { compared: 0, skipped: 0, accepted: [], findings: [] };
      areas.set(area, result);
      // Our path parameters may be named differently: they pair with AYON's by position.
      const rename = new Map(pathNames(path).map((name, i) => [name, pathNames(ayon.path)[i]]));
      const walker = new Walker(components);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.in !== 'query') continue;
        const name =
          parameter.in === 'path' ? (rename.get(parameter.name) ?? parameter.name) : parameter.name;
        walker.walk(parameter.schema ?? {}, `${parameter.in}.${name}`);
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) walker.walk(body, 'body');
      const theirs = new Map(
        Object.entries(ayon.route.fields).map(([field, facts]) => [fieldKey(field), facts]),
      );
      for (const [field, readings] of walker.fields) {
        const facts = theirs.get(field);
        const ours = merge(readings);
        if (!facts || !hasConstraint(ours)) continue;
        if (facts.validator) {
          result.skipped++;
          continue;
        }
        result.compared++;
        for (const finding of stricter(field, ours, facts)) {
          const found = { route: ayon.key, field, kind: finding.split(':')[0], ours };
          const line = `${ayon.key} ${field}: ${finding}`;
          (EXCEPTIONS.some((e) => e.accepts(found)) ? result.accepted : result.findings).push(line);
        }
      }
    }
  }
  return areas;
}

function hasConstraint(f: Ours): boolean {
  return Object.keys(f).some((k) => k !== 'integer' && k !== 'nullable');
}

// ----------------------------------------------------------------------------------------------------------------

let core: TestCore;
let results: Map<string, AreaResult>;
const AREAS = [...new Set(Object.keys(AYON).map((key) => key.split(' ')[1].split('/')[2]))].sort();

beforeAll(async () => {
  process.env.YNPUT_CLOUD_URL = 'http://127.0.0.1:9';
  core = await bootTestCore({ addons: ALL_ADDONS });
  results = compareDocument((await core.request('GET', '/openapi.json')).body);
  // REQUEST_CONSTRAINTS_FINDINGS=<file> writes every finding there, one per line (the accepted ones marked), to
  // work through the list.
  const dump = process.env.REQUEST_CONSTRAINTS_FINDINGS;
  if (dump) {
    const lines = [...results].flatMap(([area, r]) => [
      ...r.findings.map((f) => `${area}\t${f}\n`),
      ...r.accepted.map((f) => `${area}\taccepted\t${f}\n`),
    ]);
    writeFileSync(dump, lines.join(''));
  }
}, 120_000);
afterAll(() => core?.close());

describe('request constraints are no stricter than AYON 1.11.3', () => {
  it('the fixture and our document meet on most of AYON routes', () => {
    const compared = [...results.values()].reduce((sum, r) => sum + r.compared, 0);
    expect(compared).toBeGreaterThan(300);
  });

  it('flags a constraint tighter than AYON', () => {
    const document = {
      paths: {
        '/api/projects/{name}/folders': {
          post: {
            parameters: [{ in: 'path', name: 'name', schema: { type: 'string', maxLength: 10 } }],
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/F' } } } },
          },
        },
      },
      components: {
        schemas: {
          F: {
            type: 'object',
            properties: {
              folderType: { anyOf: [{ type: 'string', pattern: 'x' }, { type: 'null' }] },
              tags: { type: 'array', items: { type: 'string', minLength: 2 } },
              name: { type: 'string', minLength: 1 },
            },
          },
        },
      },
    };
    // The renamed path parameter pairs with AYON's by position, and its bound is an accepted exception; a
    // minLength of 1 is no stricter than a pattern that refuses the empty string.
    expect(compareDocument(document).get('projects')?.findings).toEqual([
      'POST /api/projects/{project_name}/folders body.folderType: pattern: ours has one, AYON none',
      'POST /api/projects/{project_name}/folders body.tags[]: minLength: ours 2, AYON none',
    ]);
  });

  it.each(AREAS)('%s', (area) => {
    expect(results.get(area)?.findings ?? []).toEqual([]);
  });
});
