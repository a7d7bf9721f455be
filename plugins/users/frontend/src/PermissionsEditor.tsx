import { Check, FolderRule, NameList } from './permission-controls';
import type { Permissions } from './routes';
import { Section } from './Section';

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

/** The parts that, switched on, allow only the names they list. */
type Restriction = 'attrib_read' | 'attrib_write' | 'links' | 'endpoints';

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
  // A switch or a list of names of one part of the permissions, by the part and the field it edits.
  const flag = <K extends keyof Permissions>(key: K, field: keyof Permissions[K] & string, label: string) => (
    <Check
      label={label}
      checked={value[key][field] as boolean}
      onChange={(on) => set(key, { [field]: on } as Partial<Permissions[K]>)}
    />
  );
  const names = <K extends keyof Permissions>(
    key: K,
    field: keyof Permissions[K] & string,
    label: string,
  ) => (
    <NameList
      key={field}
      label={label}
      value={value[key][field] as string[]}
      onChange={(list) => set(key, { [field]: list } as Partial<Permissions[K]>)}
    />
  );
  // A restriction: its switch and, while it is on, the lists of names it still allows.
  const restriction = <K extends Restriction>(
    key: K,
    label: string,
    lists: [keyof Permissions[K] & string, string][],
  ) => (
    <>
      {flag(key, 'enabled', label)}
      {value[key].enabled &&
        (lists.length === 1 ? (
          names(key, ...lists[0]!)
        ) : (
          <div className="pw-row">{lists.map(([field, listLabel]) => names(key, field, listLabel))}</div>
        ))}
    </>
  );

  return (
    <div className="us-permissions">
      <Section
        title="Project management"
        help="What members may manage in the projects where they hold this group."
      >
        {flag('project', 'enabled', 'Use these project levels')}
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
        {restriction('attrib_read', 'Only show the attributes listed', [
          ['attributes', 'Readable attributes'],
        ])}
        {restriction('attrib_write', 'Only allow changes to the attributes and fields listed', [
          ['attributes', 'Writable attributes'],
          ['fields', 'Writable fields (name, status, assignees, …)'],
        ])}
      </Section>
      <Section
        title="Links and endpoints"
        help="Limit the link types members may create and the API they may call."
      >
        {restriction('links', 'Only allow the link types listed', [['link_types', 'Link types']])}
        {restriction('endpoints', 'Only allow the endpoints listed', [['endpoints', 'Endpoints']])}
      </Section>
      <Section title="Studio" help="Studio-wide rights that come with this group.">
        {flag('studio', 'enabled', 'Use these studio rights')}
        {flag('studio', 'create_projects', 'Create projects')}
        {flag('studio', 'list_all_users', 'See every user of the studio')}
      </Section>
      <Section title="Tasks" help="How much of a folder's work assigned members see.">
        {flag('advanced', 'show_sibling_tasks', 'Show the tasks next to the ones assigned')}
      </Section>
    </div>
  );
}
