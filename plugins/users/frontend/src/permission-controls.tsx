import type { FolderAccessType, FolderWhitelist } from './routes';
import { Options } from '@pipewright/sdk/ui';

// The controls of the access group form: a checkbox, a list of names, and the rule of which folders an action is
// allowed on.

const ACCESS_TYPES: { value: FolderAccessType; label: string }[] = [
  { value: 'assigned', label: 'Folders with a task assigned to the user' },
  { value: 'hierarchy', label: 'A folder and everything below it' },
  { value: 'children', label: 'Only what is below a folder' },
];

/** A checkbox with its label after it. */
export function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(value: boolean): void;
}) {
  return (
    <label className="pw-inline">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** A list of names edited as text, one per line. */
export function NameList({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string[];
  onChange(value: string[]): void;
}) {
  return (
    <label>
      {label}
      <textarea
        rows={3}
        value={value.join('\n')}
        placeholder="One per line"
        onChange={(e) => onChange(e.target.value.split('\n'))}
        // Lines are tidied only when leaving the field, so spaces and new lines can be typed.
        onBlur={() => onChange(value.map((name) => name.trim()).filter((name) => name !== ''))}
      />
    </label>
  );
}

/** Where an action on folders is allowed: anywhere, or only the folders the rule lists. */
export function FolderRule({
  title,
  value,
  onChange,
}: {
  title: string;
  value: FolderWhitelist;
  onChange(value: FolderWhitelist): void;
}) {
  const entries = value.access_list;
  const setEntry = (i: number, entry: FolderWhitelist['access_list'][number]) =>
    onChange({ ...value, access_list: entries.map((e, at) => (at === i ? entry : e)) });
  return (
    <div className="us-rule">
      <Check
        label={`${title}: only the folders listed`}
        checked={value.enabled}
        onChange={(enabled) => onChange({ ...value, enabled })}
      />
      {value.enabled && (
        <div className="us-rule-list">
          {entries.length === 0 && <p className="muted pw-small">Nothing listed: nowhere allowed.</p>}
          {entries.map((entry, i) => (
            <div className="pw-row" key={i}>
              <select
                aria-label={`${title} rule ${i + 1}`}
                value={entry.access_type}
                onChange={(e) => setEntry(i, { ...entry, access_type: e.target.value as FolderAccessType })}
              >
                <Options items={ACCESS_TYPES} value={(type) => type.value} label={(type) => type.label} />
              </select>
              {entry.access_type !== 'assigned' && (
                <input
                  aria-label={`${title} rule ${i + 1} folder path`}
                  placeholder="Folder path, e.g. assets/characters"
                  value={entry.path ?? ''}
                  onChange={(e) => setEntry(i, { ...entry, path: e.target.value })}
                />
              )}
              <button
                type="button"
                onClick={() => onChange({ ...value, access_list: entries.filter((_, at) => at !== i) })}
              >
                Remove
              </button>
            </div>
          ))}
          <button
            type="button"
            onClick={() =>
              onChange({ ...value, access_list: [...entries, { access_type: 'hierarchy', path: '' }] })
            }
          >
            Add folder rule
          </button>
        </div>
      )}
    </div>
  );
}
