import type { Condition } from './routes';

const OPERATORS: [Condition['op'], string][] = [
  ['eq', 'is'],
  ['ne', 'is not'],
  ['in', 'is one of'],
  ['notIn', 'is none of'],
  ['contains', 'contains'],
  ['gt', '>'],
  ['gte', '≥'],
  ['lt', '<'],
  ['lte', '≤'],
  ['exists', 'is set'],
  ['missing', 'is not set'],
];
const LISTS: Condition['op'][] = ['in', 'notIn'];
const NO_VALUE: Condition['op'][] = ['exists', 'missing'];

/** A value as typed: JSON where it reads as JSON (1001, true, null, "x"), else the text itself. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** How a condition's value is typed: lists separated by commas, text as itself, anything else as JSON. */
export function valueText(condition: Condition): string {
  const one = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  if (condition.value === undefined) return '';
  return Array.isArray(condition.value) && LISTS.includes(condition.op)
    ? condition.value.map(one).join(', ')
    : one(condition.value);
}

/** A condition as typed: the value read for its operator (none, a list, or one value). */
export function typedCondition(path: string, op: Condition['op'], text: string): Condition {
  if (NO_VALUE.includes(op)) return { path, op };
  if (LISTS.includes(op))
    return {
      path,
      op,
      value: text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
        .map(parsed),
    };
  return { path, op, value: parsed(text.trim()) };
}

export interface ConditionDraft {
  path: string;
  op: Condition['op'];
  text: string;
}

/** Conditions on the event, all of which must hold: a path into the message's data, a comparison and a value. */
export function ConditionsField({
  rows,
  onChange,
}: {
  rows: ConditionDraft[];
  onChange(rows: ConditionDraft[]): void;
}) {
  const change = (index: number, patch: Partial<ConditionDraft>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="wh-conditions">
      <legend>Only when (all of these hold)</legend>
      {rows.length === 0 && <p className="muted">Every matching event is sent.</p>}
      {rows.map((row, index) => (
        <div key={index} className="wh-condition" role="group" aria-label={`Condition ${index + 1}`}>
          <input
            aria-label="Path"
            placeholder="payload.newValue"
            value={row.path}
            onChange={(e) => change(index, { path: e.target.value })}
          />
          <select
            aria-label="Comparison"
            value={row.op}
            onChange={(e) => change(index, { op: e.target.value as Condition['op'] })}
          >
            {OPERATORS.map(([op, label]) => (
              <option key={op} value={op}>
                {label}
              </option>
            ))}
          </select>
          {!NO_VALUE.includes(row.op) && (
            <input
              aria-label="Value"
              placeholder={LISTS.includes(row.op) ? 'Approved, Final' : 'Approved'}
              value={row.text}
              onChange={(e) => change(index, { text: e.target.value })}
            />
          )}
          <button
            type="button"
            aria-label={`Remove condition ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        onClick={() => onChange([...rows, { path: 'payload.newValue', op: 'eq', text: '' }])}
      >
        Add a condition
      </button>
      <p className="muted wh-hint">
        Paths name what a full message&apos;s data holds: payload.newValue, payload.oldValue,
        summary.entityId, user, project. Values are text, or JSON for numbers and true, false, null.
      </p>
    </fieldset>
  );
}
