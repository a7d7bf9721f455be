import type { ReactNode } from 'react';
import type { FolderAccessType, FolderWhitelist, Permissions } from './routes';

// The form of one access group's permissions. The shape is fixed by the access addon, so each section gets a form
// that reads as what it means rather than a generic tree of fields.

const LEVELS = ['None', 'Read', 'Write', 'Everything'];

const FOLDER_KINDS = [
  ['create', 'Create'],
  ['read', 'Read'],
  ['update', 'Update'],
  ['publish', 'Publish to'],
  ['delete', 'Delete'],
] as const;

const ACCESS_TYPES: { value: FolderAccessType; label: string }[] = [
  { value: 'assigned', label: 'Folders with a task assigned to the user' },
  { value: 'hierarchy', label: 'A folder and everything below it' },
  { value: 'children', label: 'Only what is below a folder' },
];

function Check({
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
function NameList({
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

function Section({ title, help, children }: { title: string; help: string; children: ReactNode }) {
  return (
    <fieldset className="pw-group us-section">
      <legend>{title}</legend>
      <p className="muted pw-small">{help}</p>
      {children}
    </fieldset>
  );
}

function FolderRule({
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
                {ACCESS_TYPES.map((type) => (
                  <option key={type.value} value={type.value}>
                    {type.label}
                  </option>
                ))}
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

/** Edit a complete permission object; every change hands the whole new object up. */
export function PermissionsEditor({
  value,
  onChange,
}: {
  value: Permissions;
  onChange(value: Permissions): void;
}) {
  const set = <K extends keyof Permissions>(key: K, part: Partial<Permissions[K]>) =>
    onChange({ ...value, [key]: { ...value[key], ...part } });

  return (
    <div className="us-permissions">
      <Section
        title="Project management"
        help="What members may manage in the projects where they hold this group."
      >
        <Check
          label="Use these project levels"
          checked={value.project.enabled}
          onChange={(enabled) => set('project', { enabled })}
        />
        <div className="pw-row">
          {(['anatomy', 'access', 'settings'] as const).map((key) => (
            <label key={key}>
              {key.charAt(0).toUpperCase() + key.slice(1)}
              <select
                value={value.project[key]}
                disabled={!value.project.enabled}
                onChange={(e) => set('project', { [key]: Number(e.target.value) })}
              >
                {LEVELS.map((label, level) => (
                  <option key={level} value={level}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
      </Section>
      <Section
        title="Folders"
        help="Without a restriction, members may do this on every folder of the project."
      >
        {FOLDER_KINDS.map(([key, title]) => (
          <FolderRule key={key} title={title} value={value[key]} onChange={(rule) => set(key, rule)} />
        ))}
      </Section>
      <Section
        title="Attributes"
        help="Hide attributes, or refuse changes to attributes and fields not listed."
      >
        <Check
          label="Only show the attributes listed"
          checked={value.attrib_read.enabled}
          onChange={(enabled) => set('attrib_read', { enabled })}
        />
        {value.attrib_read.enabled && (
          <NameList
            label="Readable attributes"
            value={value.attrib_read.attributes}
            onChange={(attributes) => set('attrib_read', { attributes })}
          />
        )}
        <Check
          label="Only allow changes to the attributes and fields listed"
          checked={value.attrib_write.enabled}
          onChange={(enabled) => set('attrib_write', { enabled })}
        />
        {value.attrib_write.enabled && (
          <div className="pw-row">
            <NameList
              label="Writable attributes"
              value={value.attrib_write.attributes}
              onChange={(attributes) => set('attrib_write', { attributes })}
            />
            <NameList
              label="Writable fields (name, status, assignees, …)"
              value={value.attrib_write.fields}
              onChange={(fields) => set('attrib_write', { fields })}
            />
          </div>
        )}
      </Section>
      <Section
        title="Links and endpoints"
        help="Limit the link types members may create and the API they may call."
      >
        <Check
          label="Only allow the link types listed"
          checked={value.links.enabled}
          onChange={(enabled) => set('links', { enabled })}
        />
        {value.links.enabled && (
          <NameList
            label="Link types"
            value={value.links.link_types}
            onChange={(link_types) => set('links', { link_types })}
          />
        )}
        <Check
          label="Only allow the endpoints listed"
          checked={value.endpoints.enabled}
          onChange={(enabled) => set('endpoints', { enabled })}
        />
        {value.endpoints.enabled && (
          <NameList
            label="Endpoints"
            value={value.endpoints.endpoints}
            onChange={(endpoints) => set('endpoints', { endpoints })}
          />
        )}
      </Section>
      <Section title="Studio" help="Studio-wide rights that come with this group.">
        <Check
          label="Use these studio rights"
          checked={value.studio.enabled}
          onChange={(enabled) => set('studio', { enabled })}
        />
        <Check
          label="Create projects"
          checked={value.studio.create_projects}
          onChange={(create_projects) => set('studio', { create_projects })}
        />
        <Check
          label="See every user of the studio"
          checked={value.studio.list_all_users}
          onChange={(list_all_users) => set('studio', { list_all_users })}
        />
      </Section>
      <Section title="Tasks" help="How much of a folder's work assigned members see.">
        <Check
          label="Show the tasks next to the ones assigned"
          checked={value.advanced.show_sibling_tasks}
          onChange={(show_sibling_tasks) => set('advanced', { show_sibling_tasks })}
        />
      </Section>
    </div>
  );
}
