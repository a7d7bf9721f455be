import type { OverrideEntry } from './routes';
import type { JsonSchema } from './schema-refs';

// What the settings form reads off a schema and its context, as pure functions: which input a field gets, how its
// choices are labelled, and which of the server's problems belong to it.

export type Json = Record<string, unknown>;

/** What every field needs besides its own schema and value. */
export interface FormContext {
  /** Overrides of the level being edited, by field path ("a/b"). */
  overrides: Map<string, OverrideEntry>;
  /** Problems the server reported, by field path. */
  problems: Map<string, string[]>;
  /** The values as saved, to mark what the user changed since. */
  saved: Json;
  onReset(path: string[]): void;
}

export const keyOf = (path: (string | number)[]) => path.join('/');

export function valueAt(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>(
    (current, key) => (current && typeof current === 'object' ? (current as Json)[key] : undefined),
    value,
  );
}

/** "maxRetries", "max_retries" -> "Max retries". */
export function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The allowed values of an enum, written as `enum` or as a union of constants. */
export function choicesOf(schema: JsonSchema): unknown[] | null {
  if (Array.isArray(schema.enum)) return schema.enum;
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0 && union.every((option) => 'const' in option))
    return union.map((o) => o.const);
  return null;
}

/** How a choice is shown: its label when the schema gives one (AYON's enumLabels), else the value itself. */
export function labelOf(schema: JsonSchema, choice: unknown): string {
  const labels = schema.enumLabels as Record<string, unknown> | undefined;
  const label = labels?.[String(choice)];
  return typeof label === 'string' ? label : String(choice);
}

/** Which input edits a value of the schema. */
export type Kind =
  'object' | 'enum' | 'boolean' | 'number' | 'integer' | 'string' | 'strings' | 'choices' | 'json';

export function kindOf(schema: JsonSchema): Kind {
  if (choicesOf(schema)) return 'enum';
  if (schema.type === 'object' && schema.properties) return 'object';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'number') return 'number';
  if (schema.type === 'integer') return 'integer';
  if (schema.type === 'string') return 'string';
  if (schema.type === 'array' && schema.items) {
    if (choicesOf(schema.items)) return 'choices';
    if (schema.items.type === 'string') return 'strings';
  }
  return 'json';
}

/** The problems at a field and below it (a list item's problem shows at the list). */
export function problemsAt(context: FormContext, path: string[], deep: boolean): string[] {
  const key = keyOf(path);
  const found: string[] = [];
  for (const [at, messages] of context.problems)
    if (at === key || (deep && at.startsWith(`${key}/`))) found.push(...messages);
  return found;
}
