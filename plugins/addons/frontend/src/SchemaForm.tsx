import type { ReactNode } from 'react';
import type { JsonSchema, OverrideEntry } from './routes';

// A form generated from an addon's settings schema (JSON Schema as TypeBox writes it). Objects become groups,
// strings, numbers and booleans inputs, enums selects, lists of strings editable lists; anything else is edited as
// JSON so no setting is out of reach.

type Json = Record<string, unknown>;

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

const keyOf = (path: (string | number)[]) => path.join('/');

function valueAt(value: unknown, path: string[]): unknown {
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
function choicesOf(schema: JsonSchema): unknown[] | null {
  if (Array.isArray(schema.enum)) return schema.enum;
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0 && union.every((option) => 'const' in option))
    return union.map((o) => o.const);
  return null;
}

/** How a choice is shown: its label when the schema gives one (AYON's enumLabels), else the value itself. */
function labelOf(schema: JsonSchema, choice: unknown): string {
  const labels = schema.enumLabels as Record<string, unknown> | undefined;
  const label = labels?.[String(choice)];
  return typeof label === 'string' ? label : String(choice);
}

type Kind = 'object' | 'enum' | 'boolean' | 'number' | 'integer' | 'string' | 'strings' | 'choices' | 'json';

function kindOf(schema: JsonSchema): Kind {
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
function problemsAt(context: FormContext, path: string[], deep: boolean): string[] {
  const key = keyOf(path);
  const found: string[] = [];
  for (const [at, messages] of context.problems)
    if (at === key || (deep && at.startsWith(`${key}/`))) found.push(...messages);
  return found;
}

/** The settings form: one field per property of the schema's root object. */
export function SchemaForm({
  schema,
  value,
  onChange,
  context,
}: {
  schema: JsonSchema;
  value: Json;
  onChange(value: Json): void;
  context: FormContext;
}) {
  return (
    <div className="ad-form">
      <ObjectFields
        schema={schema}
        value={value}
        path={[]}
        onChange={(v) => onChange(v as Json)}
        context={context}
      />
    </div>
  );
}

function ObjectFields({
  schema,
  value,
  path,
  onChange,
  context,
}: {
  schema: JsonSchema;
  value: unknown;
  path: string[];
  onChange(value: unknown): void;
  context: FormContext;
}) {
  const object = value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
  return (
    <>
      {Object.entries(schema.properties ?? {}).map(([key, child]) => (
        <Field
          key={key}
          name={key}
          schema={child}
          value={object[key]}
          path={[...path, key]}
          onChange={(next) => onChange({ ...object, [key]: next })}
          context={context}
        />
      ))}
    </>
  );
}

function Field({
  name,
  schema,
  value,
  path,
  onChange,
  context,
}: {
  name: string;
  schema: JsonSchema;
  value: unknown;
  path: string[];
  onChange(value: unknown): void;
  context: FormContext;
}) {
  const kind = kindOf(schema);
  const label = schema.title ?? humanise(name);
  const id = `ad-field-${keyOf(path).replace(/[^a-zA-Z0-9_-]/g, '_')}`;

  if (kind === 'object') {
    const problems = problemsAt(context, path, false);
    return (
      <fieldset className="pw-group" data-field={keyOf(path)}>
        <legend>{label}</legend>
        {schema.description && <p className="muted pw-small">{schema.description}</p>}
        <OverrideMark path={path} context={context} />
        <ProblemList problems={problems} />
        <ObjectFields schema={schema} value={value} path={path} onChange={onChange} context={context} />
      </fieldset>
    );
  }

  const problems = problemsAt(context, path, true);
  const changed = JSON.stringify(valueAt(context.saved, path)) !== JSON.stringify(value);
  return (
    <div className={problems.length ? 'pw-field pw-field-invalid' : 'pw-field'} data-field={keyOf(path)}>
      <div className="ad-field-head">
        {kind === 'boolean' ? (
          <label className="pw-inline" htmlFor={id}>
            <input
              id={id}
              type="checkbox"
              checked={value === true}
              onChange={(e) => onChange(e.target.checked)}
              aria-invalid={problems.length > 0}
            />
            {label}
          </label>
        ) : (
          <label htmlFor={id}>{label}</label>
        )}
        {changed && <span className="ad-changed">changed</span>}
        <OverrideMark path={path} context={context} />
      </div>
      {kind !== 'boolean' && (
        <Input
          id={id}
          kind={kind}
          schema={schema}
          value={value}
          onChange={onChange}
          invalid={problems.length > 0}
          label={label}
        />
      )}
      {schema.description && <p className="muted pw-small">{schema.description}</p>}
      <ProblemList problems={problems} />
    </div>
  );
}

function Input({
  id,
  kind,
  schema,
  value,
  onChange,
  invalid,
  label,
}: {
  id: string;
  kind: Kind;
  schema: JsonSchema;
  value: unknown;
  onChange(value: unknown): void;
  invalid: boolean;
  label: string;
}) {
  switch (kind) {
    case 'enum': {
      const choices = choicesOf(schema)!;
      const at = choices.findIndex((choice) => JSON.stringify(choice) === JSON.stringify(value));
      return (
        <select
          id={id}
          value={at}
          aria-invalid={invalid}
          onChange={(e) => onChange(choices[Number(e.target.value)])}
        >
          {at < 0 && <option value={-1}>Choose…</option>}
          {choices.map((choice, i) => (
            <option key={i} value={i}>
              {labelOf(schema, choice)}
            </option>
          ))}
        </select>
      );
    }
    case 'number':
    case 'integer':
      return (
        <NumberInput
          id={id}
          schema={schema}
          value={value}
          integer={kind === 'integer'}
          onChange={onChange}
          invalid={invalid}
        />
      );
    case 'string':
      return (
        <input
          id={id}
          value={typeof value === 'string' ? value : ''}
          aria-invalid={invalid}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
        />
      );
    case 'strings':
      return (
        <StringList
          id={id}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={onChange}
          label={label}
        />
      );
    case 'choices': {
      const choices = choicesOf(schema.items!)!;
      const chosen = Array.isArray(value) ? value : [];
      return (
        <div id={id} className="ad-checks" role="group" aria-label={label}>
          {choices.map((choice, i) => (
            <label key={i} className="pw-inline">
              <input
                type="checkbox"
                checked={chosen.includes(choice)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...chosen, choice] : chosen.filter((c) => c !== choice))
                }
              />
              {labelOf(schema.enumLabels ? schema : schema.items!, choice)}
            </label>
          ))}
        </div>
      );
    }
    default:
      return <JsonInput id={id} value={value} onChange={onChange} invalid={invalid} />;
  }
}

/** Numbers are kept as typed until they parse, so "1." or "-" can be typed on the way to a number. */
function NumberInput({
  id,
  schema,
  value,
  integer,
  onChange,
  invalid,
}: {
  id: string;
  schema: JsonSchema;
  value: unknown;
  integer: boolean;
  onChange(value: unknown): void;
  invalid: boolean;
}) {
  return (
    <input
      id={id}
      type="number"
      step={integer ? 1 : 'any'}
      min={schema.minimum}
      max={schema.maximum}
      value={typeof value === 'number' ? value : ''}
      aria-invalid={invalid}
      onChange={(e) => {
        const text = e.target.value;
        // An emptied field is sent as it is: the server says what the setting needs.
        if (text === '') return onChange(null);
        const parsed = Number(text);
        if (!Number.isNaN(parsed)) onChange(parsed);
      }}
    />
  );
}

function StringList({
  id,
  value,
  onChange,
  label,
}: {
  id: string;
  value: string[];
  onChange(value: string[]): void;
  label: string;
}) {
  return (
    <div id={id} className="ad-list" role="group" aria-label={label}>
      {value.map((item, i) => (
        <div className="pw-row" key={i}>
          <input
            aria-label={`${label} ${i + 1}`}
            value={item}
            onChange={(e) => onChange(value.map((v, at) => (at === i ? e.target.value : v)))}
            spellCheck={false}
          />
          <button
            type="button"
            aria-label={`Remove ${label} ${i + 1}`}
            onClick={() => onChange(value.filter((_, at) => at !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...value, ''])}>
        Add to {label.toLowerCase()}
      </button>
    </div>
  );
}

/** Anything the form has no input for: edited as JSON, applied once it parses. */
function JsonInput({
  id,
  value,
  onChange,
  invalid,
}: {
  id: string;
  value: unknown;
  onChange(value: unknown): void;
  invalid: boolean;
}) {
  return (
    <textarea
      id={id}
      rows={4}
      className="pw-mono"
      defaultValue={JSON.stringify(value ?? null, null, 2)}
      aria-invalid={invalid}
      onChange={(e) => {
        try {
          onChange(JSON.parse(e.target.value));
        } catch {
          // Not JSON yet: keep the last value that was.
        }
      }}
    />
  );
}

function OverrideMark({ path, context }: { path: string[]; context: FormContext }): ReactNode {
  const override = context.overrides.get(keyOf(path));
  if (!override) return null;
  return (
    <span className="ad-override">
      overridden
      <button type="button" className="pw-link" onClick={() => context.onReset(path)}>
        Reset to default
      </button>
    </span>
  );
}

function ProblemList({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="ad-problems" role="alert">
      {problems.map((problem, i) => (
        <li key={i}>{problem}</li>
      ))}
    </ul>
  );
}
