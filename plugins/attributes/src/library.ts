import { Conflict, NotFound, type Database, type EventBus, type Problem } from '@pipewright/sdk';
import type { AttributeDefinition, AttributeLibrary, AttributeScope } from './api.js';
import { DefinitionsCache } from './definitions-cache.js';
import {
  deleteDefinition,
  deleteStudioDefinitionsExcept,
  lockDefinition,
  normaliseData,
  readDefinition,
  readDefinitions,
  upsertDefinition,
  type AttributeInput,
} from './store.js';
import { checkValue } from './value-checks.js';

// The attributes addon's service: questions are answered from the compiled definitions (definitions-cache.ts),
// changes go to the table (store.ts) with their event in the same unit of work.

type Loc = (string | number)[];

// Clients (the launcher, DCC integrations) read built-in values with fixed types; another type would break them.
function refuseRetype(name: string, builtin: boolean, from: string, to: string): void {
  if (builtin && from !== to) {
    throw new Conflict(
      `The type of the built-in attribute ${name} cannot be changed from ${from} to ${to}`,
      'builtin-attribute-type',
    );
  }
}

/** The studio's attribute definitions, with validators compiled once and rebuilt when definitions change. */
export class AttributeService implements AttributeLibrary {
  private readonly cache: DefinitionsCache;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {
    this.cache = new DefinitionsCache(db);
  }

  /** Definitions changed (an attribute.* event, mostly another process's): read them again beside their users. */
  invalidate(): void {
    this.cache.invalidate();
  }

  /** Read the definitions now and wait for them: at start-up, and after a change made here. */
  reload(): Promise<void> {
    return this.cache.reload();
  }

  /** Definitions straight from the database, in position order. */
  read(): Promise<AttributeDefinition[]> {
    return readDefinitions(this.db);
  }

  get(name: string): Promise<AttributeDefinition | null> {
    return readDefinition(this.db, name);
  }

  async require(name: string): Promise<AttributeDefinition> {
    const definition = await this.get(name);
    if (!definition) throw new NotFound(`Attribute ${name} not found`);
    return definition;
  }

  async list(entityType?: AttributeScope): Promise<AttributeDefinition[]> {
    const { definitions } = await this.cache.compiled();
    const chosen = entityType ? definitions.filter((d) => d.scope.includes(entityType)) : definitions;
    // Callers get copies so nobody can edit the shared cache by accident.
    return structuredClone(chosen);
  }

  async validate(entityType: AttributeScope, attrib: Record<string, unknown>, loc: Loc): Promise<Problem[]> {
    const known = await this.cache.validators(entityType);
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
    const known = await this.cache.validators(entityType);
    return Object.fromEntries(Object.entries(attrib).filter(([key]) => known.has(key)));
  }

  async defaults(entityType: AttributeScope): Promise<Record<string, unknown>> {
    const { definitions } = await this.cache.compiled();
    const defaults: Record<string, unknown> = {};
    for (const d of definitions) {
      if (d.scope.includes(entityType) && d.data.default !== undefined && d.data.default !== null)
        defaults[d.name] = structuredClone(d.data.default);
    }
    return defaults;
  }

  async inheritable(entityType: AttributeScope): Promise<string[]> {
    const { definitions } = await this.cache.compiled();
    return definitions
      .filter((d) => d.scope.includes(entityType) && d.data.inherit !== false)
      .map((d) => d.name);
  }

  /** Create or replace definitions in one transaction; with deleteMissing, studio-made ones not listed go. */
  async save(
    inputs: AttributeInput[],
    options: { deleteMissing?: boolean; actor: string },
  ): Promise<{ saved: string[]; deleted: string[] }> {
    const result = await this.db.transaction().execute(async (trx) => {
      for (const input of inputs) await this.upsert(input);
      const saved = inputs.map((i) => i.name);
      const deleted = options.deleteMissing ? await deleteStudioDefinitionsExcept(trx, saved) : [];
      if (saved.length) await this.changed('attribute.updated', saved, options.actor);
      if (deleted.length) await this.changed('attribute.deleted', deleted, options.actor);
      return { saved, deleted };
    });
    await this.reload();
    return result;
  }

  /** Delete a studio-made attribute; built-in ones stay because clients expect them. */
  async remove(name: string, actor: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await lockDefinition(trx, name);
      if (!row) throw new NotFound(`Attribute ${name} not found`);
      if (row.builtin)
        throw new Conflict(`Attribute ${name} is built in and cannot be deleted`, 'builtin-attribute');
      await deleteDefinition(trx, name);
      await this.changed('attribute.deleted', [name], actor);
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
    const existing = await lockDefinition(this.db, input.name);
    if (existing) refuseRetype(input.name, existing.builtin, existing.data.type, data.type);
    await upsertDefinition(this.db, input, data);
  }

  /** Tell every server process (and clients) that definitions changed, in the change's unit of work. */
  private changed(topic: 'attribute.updated' | 'attribute.deleted', names: string[], actor: string) {
    return this.events.emit({
      topic,
      user: actor,
      description: `Attribute${names.length === 1 ? '' : 's'} ${names.join(', ')} ${topic === 'attribute.deleted' ? 'deleted' : 'saved'}`,
      summary: { attributes: names },
    });
  }
}
