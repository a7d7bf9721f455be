import { sql } from 'kysely';
import {
  Conflict,
  NotFound,
  type AttributeData,
  type AttributeDefinition,
  type AttributeLibrary,
  type AttributeScope,
  type Database,
  type EventBus,
  type Problem,
  type Sender,
} from '@pipewright/sdk';
import { DATA_FIELDS } from './schemas.js';

type Loc = (string | number)[];

/** A definition as a client sends it; builtin is decided by the server. */
export interface AttributeInput {
  name: string;
  position: number;
  scope: AttributeScope[];
  data: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------------------
// Value checks

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

// Date.parse alone would accept 2025-02-31 (it rolls over into March), so the calendar is checked by hand.
function isIsoDatetime(value: string): boolean {
  const match = ISO_DATETIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  if (month! < 1 || month! > 12 || hour! > 23 || minute! > 59 || second! > 59) return false;
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return day! >= 1 && day! <= daysInMonth && !Number.isNaN(Date.parse(value));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ITEM_CHECKS: Partial<Record<AttributeData['type'], [test: (item: unknown) => boolean, msg: string]>> = {
  list_of_strings: [(item) => typeof item === 'string', 'must be a string'],
  list_of_integers: [(item) => Number.isInteger(item), 'must be an integer'],
  list_of_submodels: [isPlainObject, 'must be an object'],
};

function typeProblem(type: AttributeData['type'], value: unknown, loc: Loc): Problem[] {
  const wrong = (msg: string, kind = 'type'): Problem[] => [{ loc, msg, type: kind }];
  switch (type) {
    case 'string':
      return typeof value === 'string' ? [] : wrong('must be a string');
    case 'integer':
      return Number.isInteger(value) ? [] : wrong('must be an integer');
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? [] : wrong('must be a number');
    case 'boolean':
      return typeof value === 'boolean' ? [] : wrong('must be true or false');
    case 'datetime':
      if (typeof value !== 'string') return wrong('must be an ISO 8601 date and time string');
      return isIsoDatetime(value) ? [] : wrong('must be an ISO 8601 date and time', 'format');
    case 'dict':
      return isPlainObject(value) ? [] : wrong('must be an object');
    default: {
      if (!Array.isArray(value)) return wrong('must be a list');
      const itemCheck = ITEM_CHECKS[type];
      if (!itemCheck) return [];
      const [test, msg] = itemCheck;
      return value.flatMap((item, index) =>
        test(item) ? [] : [{ loc: [...loc, index], msg, type: 'type' }],
      );
    }
  }
}

const sameValue = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Compile a definition's regex; null when it has none. Throws SyntaxError for a pattern JavaScript cannot compile. */
export function compilePattern(regex: string | null | undefined): RegExp | null {
  return regex ? new RegExp(regex) : null;
}

/**
 * Problems of one value against a definition's data. The type is checked first: limits are meaningless on a
 * value of the wrong type. pattern may be passed precompiled (the library caches it).
 */
export function checkValue(
  data: AttributeData,
  value: unknown,
  loc: Loc,
  pattern: RegExp | null = safePattern(data.regex),
): Problem[] {
  const typeProblems = typeProblem(data.type, value, loc);
  if (typeProblems.length) return typeProblems;
  const problems: Problem[] = [];
  const add = (msg: string, type: string) => problems.push({ loc, msg, type });

  if (typeof value === 'number') {
    if (data.gt != null && !(value > data.gt)) add(`must be greater than ${data.gt}`, 'exclusiveMinimum');
    if (data.ge != null && !(value >= data.ge)) add(`must be greater than or equal to ${data.ge}`, 'minimum');
    if (data.lt != null && !(value < data.lt)) add(`must be less than ${data.lt}`, 'exclusiveMaximum');
    if (data.le != null && !(value <= data.le)) add(`must be less than or equal to ${data.le}`, 'maximum');
  }
  if (typeof value === 'string') {
    if (data.minLength != null && value.length < data.minLength)
      add(`must have at least ${data.minLength} characters`, 'minLength');
    if (data.maxLength != null && value.length > data.maxLength)
      add(`must have at most ${data.maxLength} characters`, 'maxLength');
    if (pattern && !pattern.test(value)) add(`must match ${data.regex}`, 'pattern');
  }
  if (Array.isArray(value)) {
    if (data.minItems != null && value.length < data.minItems)
      add(`must have at least ${data.minItems} items`, 'minItems');
    if (data.maxItems != null && value.length > data.maxItems)
      add(`must have at most ${data.maxItems} items`, 'maxItems');
  }
  if (data.enum?.length) {
    const allowed = data.enum.map((item) => item.value);
    const msg = `must be one of: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
    // For lists the enum lists what each item may be (a multi-select).
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (!allowed.some((v) => sameValue(v, item)))
          problems.push({ loc: [...loc, index], msg, type: 'enum' });
      });
    } else if (!allowed.some((v) => sameValue(v, value))) {
      add(msg, 'enum');
    }
  }
  return problems;
}

function safePattern(regex: string | null | undefined): RegExp | null {
  try {
    return compilePattern(regex);
  } catch {
    return null;
  }
}

/** Problems of a definition that a schema cannot see: a regex that does not compile, a default breaking its own rules. */
export function checkDefinition(data: AttributeData, loc: Loc): Problem[] {
  let pattern: RegExp | null = null;
  try {
    pattern = compilePattern(data.regex);
  } catch (error) {
    return [
      {
        loc: [...loc, 'regex'],
        msg: `is not a valid regular expression: ${(error as Error).message}`,
        type: 'regex',
      },
    ];
  }
  if (data.default === undefined || data.default === null) return [];
  return checkValue(data, data.default, [...loc, 'default'], pattern);
}

/** Keep the known data fields, drop unset ones, and make inherit explicit (true unless said otherwise). */
export function normaliseData(data: Record<string, unknown>): AttributeData {
  const kept = Object.fromEntries(
    DATA_FIELDS.filter((key) => data[key] !== undefined && data[key] !== null).map((key) => [key, data[key]]),
  );
  return { ...kept, inherit: data.inherit !== false } as AttributeData;
}

// ---------------------------------------------------------------------------------------------------------------
// The library

interface Compiled {
  definitions: AttributeDefinition[];
  byScope: Map<AttributeScope, Map<string, { data: AttributeData; pattern: RegExp | null }>>;
  loadedAt: number;
  /** How many changes to the definitions this process knew of when it began reading them. */
  changes: number;
}

// Writes elsewhere arrive as attribute.* events over Redis; the age limit is a safety net should one be missed.
const MAX_AGE_MS = 60_000;

// AYON answers every data field, null where unset: clients read data.default and friends without checking.
const UNSET_DATA = Object.fromEntries(DATA_FIELDS.map((key) => [key, null]));

function toDefinition(row: Record<string, any>): AttributeDefinition {
  const data = { ...UNSET_DATA, ...row.data };
  return { name: row.name, position: row.position, scope: row.scope, builtin: row.builtin, data };
}

// Clients (the launcher, DCC integrations) read built-in values with fixed types; another type would break them.
function refuseRetype(name: string, builtin: boolean, from: string, to: string): void {
  if (builtin && from !== to) {
    throw new Conflict(
      `The type of the built-in attribute ${name} cannot be changed from ${from} to ${to}`,
      'builtin-attribute-type',
    );
  }
}

const scopeArray = (scope: AttributeScope[]) => sql<string[]>`ARRAY[${sql.join(scope)}]::text[]`;

/** The studio's attribute definitions, with validators compiled once and rebuilt when definitions change. */
export class AttributeService implements AttributeLibrary {
  private current: Compiled | null = null;
  private changes = 0;
  private refreshing = false;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  /** Definitions changed (an attribute.* event, mostly another process's): read them again beside their users. */
  invalidate(): void {
    this.changes++;
    this.refreshBeside();
  }

  /** Read the definitions now and wait for them: at start-up, and after a change made here. */
  async reload(): Promise<void> {
    this.changes++;
    await this.load();
  }

  // Writes use the definitions inside their transactions, and on PGlite (one connection) a read there would wait for
  // that very transaction, for ever. So definitions once read are answered at once, even old ones, while newer ones
  // are read beside; only a use before the first read (which setup does) waits.
  private async compiled(): Promise<Compiled> {
    const current = this.current;
    if (!current) return this.load();
    if (current.changes !== this.changes || Date.now() - current.loadedAt > MAX_AGE_MS) this.refreshBeside();
    return current;
  }

  private refreshBeside(): void {
    if (this.refreshing) return;
    this.refreshing = true;
    // A failed read is tried again at the next use.
    this.load()
      .catch(() => undefined)
      .finally(() => (this.refreshing = false));
  }

  private async load(): Promise<Compiled> {
    const changes = this.changes;
    const definitions = await this.read();
    const byScope: Compiled['byScope'] = new Map();
    for (const definition of definitions) {
      const entry = { data: definition.data, pattern: safePattern(definition.data.regex) };
      for (const scope of definition.scope) {
        if (!byScope.has(scope)) byScope.set(scope, new Map());
        byScope.get(scope)!.set(definition.name, entry);
      }
    }
    const compiled = { definitions, byScope, loadedAt: Date.now(), changes };
    // Reads may overlap (a reload beside a refresh): keep the one that began after the most changes.
    if (!this.current || this.current.changes <= changes) this.current = compiled;
    return compiled;
  }

  /** Definitions straight from the database, in position order. */
  async read(): Promise<AttributeDefinition[]> {
    const rows = await this.db
      .selectFrom('attributes')
      .selectAll()
      .orderBy('position')
      .orderBy('name')
      .execute();
    return rows.map(toDefinition);
  }

  async get(name: string): Promise<AttributeDefinition | null> {
    const row = await this.db
      .selectFrom('attributes')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? toDefinition(row) : null;
  }

  async require(name: string): Promise<AttributeDefinition> {
    const definition = await this.get(name);
    if (!definition) throw new NotFound(`Attribute ${name} not found`);
    return definition;
  }

  async list(entityType?: AttributeScope): Promise<AttributeDefinition[]> {
    const { definitions } = await this.compiled();
    const chosen = entityType ? definitions.filter((d) => d.scope.includes(entityType)) : definitions;
    // Callers get copies so nobody can edit the shared cache by accident.
    return structuredClone(chosen);
  }

  async validate(entityType: AttributeScope, attrib: Record<string, unknown>, loc: Loc): Promise<Problem[]> {
    const known = (await this.compiled()).byScope.get(entityType) ?? new Map();
    const problems: Problem[] = [];
    for (const [key, value] of Object.entries(attrib)) {
      const definition = known.get(key);
      if (!definition) {
        problems.push({
          loc: [...loc, key],
          msg: `unknown attribute '${key}' for ${entityType}`,
          type: 'unknown_attribute',
        });
        continue;
      }
      // null clears an entity's own value so it inherits again: always allowed.
      if (value === null) continue;
      problems.push(...checkValue(definition.data, value, [...loc, key], definition.pattern));
    }
    return problems;
  }

  async withoutUnknown(entityType: AttributeScope, attrib: Record<string, unknown>) {
    const known = (await this.compiled()).byScope.get(entityType) ?? new Map();
    return Object.fromEntries(Object.entries(attrib).filter(([key]) => known.has(key)));
  }

  async defaults(entityType: AttributeScope): Promise<Record<string, unknown>> {
    const { definitions } = await this.compiled();
    const defaults: Record<string, unknown> = {};
    for (const d of definitions) {
      if (d.scope.includes(entityType) && d.data.default !== undefined && d.data.default !== null)
        defaults[d.name] = structuredClone(d.data.default);
    }
    return defaults;
  }

  async inheritable(entityType: AttributeScope): Promise<string[]> {
    const { definitions } = await this.compiled();
    return definitions
      .filter((d) => d.scope.includes(entityType) && d.data.inherit !== false)
      .map((d) => d.name);
  }

  /** Create or replace definitions in one transaction; with deleteMissing, studio-made ones not listed go. */
  async save(
    inputs: AttributeInput[],
    options: { deleteMissing?: boolean; actor: string; sender: Sender },
  ): Promise<{ saved: string[]; deleted: string[] }> {
    const result = await this.db.transaction().execute(async (trx) => {
      for (const input of inputs) await this.upsert(input);
      let deleted: string[] = [];
      if (options.deleteMissing) {
        let query = trx.deleteFrom('attributes').where('builtin', '=', false);
        if (inputs.length)
          query = query.where(
            'name',
            'not in',
            inputs.map((i) => i.name),
          );
        deleted = (await query.returning('name').execute()).map((row) => row.name);
      }
      const saved = inputs.map((i) => i.name);
      if (saved.length) await this.changed('attribute.updated', saved, options.actor, options.sender);
      if (deleted.length) await this.changed('attribute.deleted', deleted, options.actor, options.sender);
      return { saved, deleted };
    });
    await this.reload();
    return result;
  }

  /** Delete a studio-made attribute; built-in ones stay because clients expect them. */
  async remove(name: string, actor: string, sender: Sender): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('attributes')
        .select(['name', 'builtin'])
        .where('name', '=', name)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw new NotFound(`Attribute ${name} not found`);
      if (row.builtin)
        throw new Conflict(`Attribute ${name} is built in and cannot be deleted`, 'builtin-attribute');
      await trx.deleteFrom('attributes').where('name', '=', name).execute();
      await this.changed('attribute.deleted', [name], actor, sender);
    });
    await this.reload();
  }

  /**
   * Refuse a retyped built-in before anything else is checked: a 422 about the default would hide the real reason.
   * save() checks again under a row lock, so this is only about the clearer answer.
   */
  async refuseBuiltinRetype(inputs: AttributeInput[]): Promise<void> {
    const current = new Map((await this.read()).map((d) => [d.name, d]));
    for (const input of inputs) {
      const existing = current.get(input.name);
      if (existing) refuseRetype(input.name, existing.builtin, existing.data.type, String(input.data.type));
    }
  }

  private async upsert(input: AttributeInput): Promise<void> {
    const data = normaliseData(input.data);
    const existing = await this.db
      .selectFrom('attributes')
      .select(['builtin', 'data'])
      .where('name', '=', input.name)
      .forUpdate()
      .executeTakeFirst();
    if (existing) refuseRetype(input.name, existing.builtin, existing.data.type, data.type);
    const values = { position: input.position, scope: scopeArray(input.scope), data: JSON.stringify(data) };
    await this.db
      .insertInto('attributes')
      .values({ name: input.name, builtin: false, ...values })
      .onConflict((oc) => oc.column('name').doUpdateSet(values))
      .execute();
  }

  /** Tell every server process (and clients) that definitions changed, in the change's unit of work. */
  private changed(
    topic: 'attribute.updated' | 'attribute.deleted',
    names: string[],
    actor: string,
    sender: Sender,
  ) {
    return this.events.emit({
      topic,
      user: actor,
      sender: sender.sender,
      senderType: sender.senderType,
      description: `Attribute${names.length === 1 ? '' : 's'} ${names.join(', ')} ${topic === 'attribute.deleted' ? 'deleted' : 'saved'}`,
      summary: { attributes: names },
    });
  }
}
