import type { ReactNode } from 'react';
import type { JsonSchema } from './schema-refs';
import { humanise, keyOf, kindOf, problemsAt, valueAt, type FormContext, type Json } from './schema-fields';
import { SchemaInput } from './SchemaInputs';

// A form generated from an addon's settings schema (JSON Schema as TypeBox writes it). Objects become groups,
// strings, numbers and booleans inputs, enums selects, lists of strings editable lists; anything else is edited as
// JSON so no setting is out of reach. The inputs are in SchemaInputs, what is read off the schema in schema-fields.

export type { FormContext } from './schema-fields';

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

/** What a field of the form is given: its schema, value and place in the settings. */
interface FieldProps {
  schema: JsonSchema;
  value: unknown;
  path: string[];
  onChange(value: unknown): void;
  context: FormContext;
}

function ObjectFields({ schema, value, path, onChange, context }: FieldProps) {
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

function Field({ name, ...field }: FieldProps & { name: string }) {
  const { schema, value, path, onChange, context } = field;
  const kind = kindOf(schema);
  const label = schema.title ?? humanise(name);
  const id = `ad-field-${keyOf(path).replace(/[^a-zA-Z0-9_-]/g, '_')}`;

  if (kind === 'object') {
    return (
      <fieldset className="pw-group" data-field={keyOf(path)}>
        <legend>{label}</legend>
        {schema.description && <p className="muted pw-small">{schema.description}</p>}
        <OverrideMark path={path} context={context} />
        <ProblemList problems={problemsAt(context, path, false)} />
        <ObjectFields {...field} />
      </fieldset>
    );
  }

  const problems = problemsAt(context, path, true);
  const invalid = problems.length > 0;
  const changed = JSON.stringify(valueAt(context.saved, path)) !== JSON.stringify(value);
  return (
    <div className={invalid ? 'pw-field pw-field-invalid' : 'pw-field'} data-field={keyOf(path)}>
      <div className="ad-field-head">
        {kind === 'boolean' ? (
          <label className="pw-inline" htmlFor={id}>
            <input
              id={id}
              type="checkbox"
              checked={value === true}
              onChange={(e) => onChange(e.target.checked)}
              aria-invalid={invalid}
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
        <SchemaInput
          id={id}
          kind={kind}
          schema={schema}
          value={value}
          onChange={onChange}
          invalid={invalid}
          label={label}
        />
      )}
      {schema.description && <p className="muted pw-small">{schema.description}</p>}
      <ProblemList problems={problems} />
    </div>
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
