// How a change reads in the history: "changed status from Not ready to In progress", "set frameEnd to 1100".

/** One change as the history routes answer it. */
export interface Change {
  id: string;
  entityType: string;
  entityId: string;
  field: string;
  oldValue: unknown;
  newValue: unknown;
  user: string | null;
  via: string;
  sender: string | null;
  senderType: string | null;
  client: string | null;
  changedAt: string;
}

const LABELS: Record<string, string> = {
  parentId: 'parent',
  folderId: 'folder',
  taskId: 'task',
  productId: 'product',
  versionId: 'version',
  thumbnailId: 'thumbnail',
  folderType: 'folder type',
  taskType: 'task type',
  productType: 'product type',
};

/** A field as people call it: attributes by name, ids by what they point at. */
export const fieldLabel = (field: string) =>
  field.startsWith('attrib.') ? field.slice('attrib.'.length) : (LABELS[field] ?? field);

/** A value in a sentence. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.map(valueText).join(', ') : 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** What the user did, after their name. */
export function describeChange(change: Change): string {
  const label = fieldLabel(change.field);
  if (change.field === 'created') return `created ${valueText(change.newValue)}`;
  if (change.field === 'deleted') return `deleted ${valueText(change.oldValue)}`;
  const empty = (value: unknown) => value === null || value === '' || (Array.isArray(value) && !value.length);
  if (empty(change.oldValue)) return `set ${label} to ${valueText(change.newValue)}`;
  if (empty(change.newValue)) return `cleared ${label} (was ${valueText(change.oldValue)})`;
  return `changed ${label} from ${valueText(change.oldValue)} to ${valueText(change.newValue)}`;
}

/** The program a change came from, in a word: the web app, or the client's own name (nuke, python-requests). */
export function clientName(change: Change): string {
  const via = change.via === 'apiKey' ? 'API key' : change.via;
  if (!change.client) return change.via === 'session' ? 'unknown client' : via;
  const name = /Mozilla\//.test(change.client) ? 'web app' : change.client.split(/[/\s]/)[0]!;
  return change.via === 'session' ? name : `${name} · ${via}`;
}
