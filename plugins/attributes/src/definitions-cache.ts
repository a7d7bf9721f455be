import type { Database } from '@pipewright/sdk';
import type { AttributeData, AttributeDefinition, AttributeScope } from './api.js';
import { readDefinitions } from './store.js';
import { safePattern } from './value-checks.js';

/** The definitions as read, with each scope's validators (data and compiled pattern) by attribute name. */
export interface Compiled {
  definitions: AttributeDefinition[];
  byScope: Map<AttributeScope, Map<string, { data: AttributeData; pattern: RegExp | null }>>;
  loadedAt: number;
  /** How many changes to the definitions this process knew of when it began reading them. */
  changes: number;
}

// Writes elsewhere arrive as attribute.* events over Redis; the age limit is a safety net should one be missed.
const MAX_AGE_MS = 60_000;

/** The definitions of this process, compiled once and read again when they change. */
export class DefinitionsCache {
  private current: Compiled | null = null;
  private changes = 0;
  private refreshing = false;

  constructor(private readonly db: Database) {}

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
  async compiled(): Promise<Compiled> {
    const current = this.current;
    if (!current) return this.load();
    if (current.changes !== this.changes || Date.now() - current.loadedAt > MAX_AGE_MS) this.refreshBeside();
    return current;
  }

  /** The validators of the attributes an entity type carries, by name. */
  async validators(entityType: AttributeScope) {
    return (await this.compiled()).byScope.get(entityType) ?? new Map();
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
    const definitions = await readDefinitions(this.db);
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
}
