import type { JsonSchema } from './schema-refs';
import { choicesOf, labelOf, type Kind } from './schema-fields';

// The inputs of the settings form, one per kind of value (see kindOf). A boolean's checkbox and an object's group
// are drawn by the field itself, around its label.

/** What every input gets: the id its label points at, the value, and where a new value goes. */
interface InputProps {
  id: string;
  value: unknown;
  onChange(value: unknown): void;
  invalid: boolean;
}

/** The input for a value of the given kind. */
export function SchemaInput({
  kind,
  schema,
  label,
  ...input
}: InputProps & { kind: Kind; schema: JsonSchema; label: string }) {
  switch (kind) {
    case 'enum':
      return <ChoiceSelect {...input} schema={schema} />;
    case 'number':
    case 'integer':
      return <NumberInput {...input} schema={schema} integer={kind === 'integer'} />;
    case 'string':
      return (
        <input
          id={input.id}
          value={typeof input.value === 'string' ? input.value : ''}
          aria-invalid={input.invalid}
          onChange={(e) => input.onChange(e.target.value)}
          spellCheck={false}
        />
      );
    case 'strings':
      return (
        <StringList
          id={input.id}
          value={Array.isArray(input.value) ? (input.value as string[]) : []}
          onChange={input.onChange}
          label={label}
        />
      );
    case 'choices':
      return <ChoiceChecks {...input} schema={schema} label={label} />;
    default:
      return <JsonInput {...input} />;
  }
}

/** One of an enum's values, by its position (values need not be strings). */
function ChoiceSelect({ id, value, onChange, invalid, schema }: InputProps & { schema: JsonSchema }) {
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

/** Any number of an enum's values: a checkbox each. */
function ChoiceChecks({
  id,
  value,
  onChange,
  schema,
  label,
}: InputProps & { schema: JsonSchema; label: string }) {
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

/** Numbers are kept as typed until they parse, so "1." or "-" can be typed on the way to a number. */
function NumberInput({
  id,
  value,
  onChange,
  invalid,
  schema,
  integer,
}: InputProps & { schema: JsonSchema; integer: boolean }) {
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

/** A list of strings: an input per item, with Remove and Add buttons. */
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
function JsonInput({ id, value, onChange, invalid }: InputProps) {
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
