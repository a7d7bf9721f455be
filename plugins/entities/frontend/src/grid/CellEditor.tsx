import { useState } from 'react';
import type { Column } from './columns';
import { formatValue, statusesFor, type Entity, type ProjectMeta } from '../model';

export interface EditTarget {
  entity: Entity;
  column: Column;
}

// What a cell's editor hands back: a new value, null to clear an attribute (so it is inherited again), or
// undefined for "no change".
type Done = (value: unknown) => void;

const INHERIT = '\u0000inherit';

/** The editor that replaces a cell while it is edited; Enter or leaving the cell saves, Escape cancels. */
export function CellEditor({
  target,
  meta,
  onDone,
}: {
  target: EditTarget;
  meta: ProjectMeta;
  onDone: Done;
}) {
  const { entity, column } = target;
  if (column.kind === 'status') {
    return (
      <select
        className="pwo-editor"
        aria-label={`Status of ${entity.name}`}
        autoFocus
        defaultValue={entity.status}
        onChange={(e) => onDone(e.target.value === entity.status ? undefined : e.target.value)}
        onBlur={() => onDone(undefined)}
        onKeyDown={(e) => e.key === 'Escape' && onDone(undefined)}
      >
        {statusesFor(meta, entity.kind).map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
          </option>
        ))}
      </select>
    );
  }
  const attribute = column.attribute!;
  const name = attribute.name;
  const own = entity.ownAttrib.includes(name);
  const label = `${attribute.data.title || name} of ${entity.name}`;
  const options = attribute.data.enum;
  if (options?.length || attribute.data.type === 'boolean') {
    const choices = options?.length
      ? options.map((o) => ({ value: o.value, label: o.label }))
      : [
          { value: true, label: 'yes' },
          { value: false, label: 'no' },
        ];
    const current = own ? choices.findIndex((c) => c.value === entity.attrib[name]) : -1;
    return (
      <select
        className="pwo-editor"
        aria-label={label}
        autoFocus
        defaultValue={current >= 0 ? String(current) : INHERIT}
        onChange={(e) => onDone(e.target.value === INHERIT ? null : choices[Number(e.target.value)]!.value)}
        onBlur={() => onDone(undefined)}
        onKeyDown={(e) => e.key === 'Escape' && onDone(undefined)}
      >
        <option value={INHERIT}>Inherit ({formatValue(entity.attrib[name]) || 'not set'})</option>
        {choices.map((c, i) => (
          <option key={i} value={String(i)}>
            {c.label}
          </option>
        ))}
      </select>
    );
  }
  return <TextEditor entity={entity} name={name} type={attribute.data.type} label={label} onDone={onDone} />;
}

function TextEditor({
  entity,
  name,
  type,
  label,
  onDone,
}: {
  entity: Entity;
  name: string;
  type: string;
  label: string;
  onDone: Done;
}) {
  const numeric = type === 'integer' || type === 'float';
  const [text, setText] = useState(formatValue(entity.attrib[name]));
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    const trimmed = text.trim();
    // An emptied cell clears the value here, so the entity inherits it again.
    if (trimmed === '') return onDone(entity.ownAttrib.includes(name) ? null : undefined);
    if (trimmed === formatValue(entity.attrib[name]) && entity.ownAttrib.includes(name))
      return onDone(undefined);
    if (!numeric) return onDone(trimmed);
    const value = Number(trimmed);
    if (!Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value)))
      return setError(type === 'integer' ? 'A whole number' : 'A number');
    onDone(value);
  };
  return (
    <span className="pwo-editor-wrap">
      <input
        className="pwo-editor"
        aria-label={label}
        aria-invalid={!!error}
        autoFocus
        inputMode={numeric ? 'decimal' : undefined}
        value={text}
        placeholder="inherit"
        onFocus={(e) => e.target.select()}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') onDone(undefined);
        }}
        onBlur={() => (error ? onDone(undefined) : commit())}
      />
      {error && <span className="pwo-editor-error">{error}</span>}
    </span>
  );
}
