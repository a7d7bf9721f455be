import { ENTITY_TYPES, newRow, STATES, type Field, type ListSpec, type Row } from './anatomy-lists';
import { Options } from '@pipewright/sdk/ui';

/** Problems the server reported for one list: row index, then field ("" for the row as a whole), then message. */
export type RowErrors = Record<number, Record<string, string>>;

/** An editable table of one anatomy list: rows can be changed, added, moved and removed. */
export function ListEditor({
  spec,
  rows,
  errors,
  editable,
  onChange,
}: {
  spec: ListSpec;
  rows: Row[];
  errors: RowErrors;
  editable: boolean;
  onChange(rows: Row[]): void;
}) {
  const update = (index: number, field: string, value: unknown) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, item: { ...row.item, [field]: value } } : row)));
  const move = (index: number, by: number) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    onChange(next);
  };

  return (
    <div className="pwp-list-editor">
      <table className="pw-table pwp-edit-table" aria-label={spec.title}>
        <thead>
          <tr>
            {spec.fields.map((f) => (
              <th key={f.field} title={f.hint}>
                {f.label}
              </th>
            ))}
            {editable && <th aria-label="Order and removal" />}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const rowErrors = errors[index] ?? {};
            return (
              <tr key={row.key} className={Object.keys(rowErrors).length ? 'pwp-row-invalid' : undefined}>
                {spec.fields.map((f) => (
                  <td key={f.field}>
                    <FieldInput
                      field={f}
                      value={row.item[f.field]}
                      label={`${spec.singular} ${index + 1} ${f.label}`}
                      disabled={!editable}
                      invalid={!!rowErrors[f.field]}
                      onChange={(value) => update(index, f.field, value)}
                    />
                    {rowErrors[f.field] && <div className="pw-field-error">{rowErrors[f.field]}</div>}
                    {f.field === 'name' && row.origin !== null && row.origin !== row.item.name && (
                      <div className="muted pw-small">renamed from {row.origin}</div>
                    )}
                    {f.field === 'name' && rowErrors[''] && (
                      <div className="pw-field-error">{rowErrors['']}</div>
                    )}
                  </td>
                ))}
                {editable && (
                  <td className="pwp-row-actions">
                    <button
                      type="button"
                      aria-label={`Move ${row.item.name || 'row'} up`}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      aria-label={`Move ${row.item.name || 'row'} down`}
                      disabled={index === rows.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      aria-label={`Remove ${row.item.name || 'row'}`}
                      onClick={() => onChange(rows.filter((_, i) => i !== index))}
                    >
                      ✕
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
          {rows.length === 0 && (
            <tr>
              <td colSpan={spec.fields.length + 1} className="muted">
                No {spec.title.toLowerCase()} yet.{editable ? ` Add one below.` : ''}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {editable && (
        <button type="button" onClick={() => onChange([...rows, newRow(spec)])}>
          Add a {spec.singular}
        </button>
      )}
    </div>
  );
}

function FieldInput({
  field,
  value,
  label,
  disabled,
  invalid,
  onChange,
}: {
  field: Field;
  value: unknown;
  label: string;
  disabled: boolean;
  invalid: boolean;
  onChange(value: unknown): void;
}) {
  switch (field.kind) {
    case 'state':
      return (
        <select
          aria-label={label}
          value={String(value ?? 'not_started')}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
        >
          <Options items={STATES} value={(s) => s} label={(s) => s.replace('_', ' ')} />
        </select>
      );
    case 'color': {
      const text = String(value ?? '');
      return (
        <span className="pwp-color">
          {/* The picker needs a valid colour; the text field lets a typo through so the server can name it. */}
          <input
            type="color"
            aria-label={`${label} picker`}
            value={/^#[0-9a-fA-F]{6}$/.test(text) ? text : '#000000'}
            disabled={disabled}
            onChange={(e) => onChange(e.target.value)}
          />
          <input
            aria-label={label}
            aria-invalid={invalid}
            value={text}
            size={8}
            disabled={disabled}
            onChange={(e) => onChange(e.target.value)}
          />
        </span>
      );
    }
    case 'scope': {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      return (
        <span className="pwp-scope" role="group" aria-label={label}>
          {ENTITY_TYPES.map((type) => (
            <label key={type} className={chosen.includes(type) ? 'pwp-chip pwp-chip-on' : 'pwp-chip'}>
              <input
                type="checkbox"
                checked={chosen.includes(type)}
                disabled={disabled}
                onChange={(e) =>
                  onChange(
                    e.target.checked
                      ? ENTITY_TYPES.filter((t) => t === type || chosen.includes(t))
                      : chosen.filter((t) => t !== type),
                  )
                }
              />
              {type === 'representation' ? 'repre' : type}
            </label>
          ))}
        </span>
      );
    }
    default:
      return (
        <input
          aria-label={label}
          aria-invalid={invalid}
          value={String(value ?? '')}
          disabled={disabled}
          size={field.field === 'name' ? 16 : 10}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}
