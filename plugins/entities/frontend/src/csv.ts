import type { Person } from './Assignees';
import { cellText, mergeChange, parseCell, parseDelimited, updateData, type CellChange } from './grid/cells';
import type { Column } from './grid/columns';
import type { Entity, Kind, ProjectMeta } from './model';

// The grid as a CSV file and back. Export writes the rows and columns shown, each row named by its path and kind;
// import reads such a file (edited in a spreadsheet), finds each row's entity by path and plans what changes:
// creates (a new path under a folder that exists or is created by the same file), updates, rows left unchanged and
// rows in error, each said in words, so the user sees it all before anything is sent.

const PATH = 'Path';
const KIND = 'Kind';
/** AYON's rule for folder and task names. */
const NAME = /^[a-zA-Z0-9_]([a-zA-Z0-9_.-]*[a-zA-Z0-9_])?$/;

const quote = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** The CSV text of the rows and columns shown (the name is in the path, so the Name column is left out). */
export function toCsv(entities: Entity[], columns: Column[], people: Person[]): string {
  const shown = columns.filter((c) => c.kind !== 'name');
  const lines = [[PATH, KIND, ...shown.map((c) => c.title)]];
  for (const entity of entities)
    lines.push([entity.path, entity.kind, ...shown.map((c) => cellText(entity, c, people))]);
  return lines.map((line) => line.map(quote).join(',')).join('\r\n') + '\r\n';
}

export type PlannedRow =
  | { line: number; action: 'create'; kind: Kind; path: string; type: string; change: CellChange }
  | { line: number; action: 'update'; entity: Entity; change: CellChange; said: string[] }
  | { line: number; action: 'unchanged'; path: string }
  | { line: number; action: 'error'; path: string; error: string };

export interface ImportPlan {
  rows: PlannedRow[];
  /** Said about the file as a whole (no Path column, an unknown column). */
  problems: string[];
}

/** A new entity as a blank one, so a created row's cells are checked like an existing row's. */
function blank(kind: Kind, path: string): Entity {
  return {
    kind,
    id: '',
    name: path.slice(path.lastIndexOf('/') + 1),
    label: null,
    type: '',
    status: '',
    tags: [],
    parentId: null,
    path,
    attrib: {},
    ownAttrib: [],
    thumbnailId: null,
    hasChildren: false,
    hasTasks: false,
    assignees: [],
  };
}

const normalPath = (text: string) => `/${text.trim().replace(/^\/+|\/+$/g, '')}`;

/**
 * What importing this CSV text would do, given every folder and task of the project (by path) and the columns the
 * grid knows (matched by title or key).
 */
export function planImport(
  text: string,
  byPath: Map<string, Entity>,
  columns: Column[],
  meta: ProjectMeta,
  people: Person[],
): ImportPlan {
  const [header, ...lines] = parseDelimited(text.replace(/^\uFEFF/, ''), ',');
  const problems: string[] = [];
  if (!header) return { rows: [], problems: ['The file is empty.'] };
  const names = header.map((h) => h.trim().toLowerCase());
  const pathAt = names.indexOf(PATH.toLowerCase());
  const kindAt = names.indexOf(KIND.toLowerCase());
  if (pathAt < 0) return { rows: [], problems: [`The first line needs a "${PATH}" column.`] };
  const mapped: { at: number; column: Column }[] = [];
  names.forEach((name, at) => {
    if (at === pathAt || at === kindAt || name === 'name' || name === '') return;
    const column = columns.find(
      (c) =>
        c.kind !== 'name' &&
        (c.title.toLowerCase() === name ||
          c.key.toLowerCase() === name ||
          c.attribute?.name.toLowerCase() === name),
    );
    if (column) mapped.push({ at, column });
    else problems.push(`The column "${header[at]}" is not one the grid has; it is left out.`);
  });
  const typeColumn = mapped.find((m) => m.column.kind === 'type');

  const rows: PlannedRow[] = [];
  // Paths this file creates, with their kind: a later (deeper) row may create inside them.
  const creating = new Map<string, Kind>();
  const seen = new Set<string>();
  // Shallow paths first, so a parent is planned before what goes inside it; the line numbers stay the file's.
  const ordered = lines
    .map((fields, i) => ({ fields, line: i + 2 }))
    .filter(({ fields }) => fields.some((f) => f.trim() !== ''))
    .map((row) => ({ ...row, path: normalPath(row.fields[pathAt] ?? '') }))
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);

  for (const { fields, line, path } of ordered) {
    const fail = (error: string) => rows.push({ line, action: 'error', path, error });
    if (path === '/') {
      fail('no path');
      continue;
    }
    if (seen.has(path)) {
      fail('the path is on an earlier line too');
      continue;
    }
    seen.add(path);
    const kindText = kindAt >= 0 ? (fields[kindAt] ?? '').trim().toLowerCase() : '';
    if (kindText && kindText !== 'folder' && kindText !== 'task') {
      fail(`the kind is "${fields[kindAt]}"; use folder or task`);
      continue;
    }
    const existing = byPath.get(path);
    if (existing && kindText && existing.kind !== kindText) {
      fail(`${path} is a ${existing.kind}, not a ${kindText}`);
      continue;
    }
    const typeText = typeColumn ? (fields[typeColumn.at] ?? '').trim() : '';
    const kind: Kind =
      existing?.kind ??
      ((kindText as Kind) ||
        (meta.taskTypes.some((t) => t.name.toLowerCase() === typeText.toLowerCase()) ? 'task' : 'folder'));
    const entity = existing ?? blank(kind, path);

    let change: CellChange = {};
    const said: string[] = [];
    const errors: string[] = [];
    for (const { at, column } of mapped) {
      // A new entity's type is the create's; empty cells leave a new entity's values to its defaults.
      if (!existing && (column.kind === 'type' || (fields[at] ?? '').trim() === '')) continue;
      const parsed = parseCell(entity, column, fields[at] ?? '', meta, people);
      if ('error' in parsed) errors.push(`${column.title}: ${parsed.error}`);
      else if (parsed.change) {
        change = mergeChange(change, parsed.change);
        said.push(
          `${column.title} ${cellText(entity, column, people) || '(empty)'} → ${fields[at]!.trim() || '(inherited)'}`,
        );
      }
    }
    if (errors.length) {
      fail(errors.join('; '));
      continue;
    }
    if (existing) {
      rows.push(
        Object.keys(change).length
          ? { line, action: 'update', entity: existing, change, said }
          : { line, action: 'unchanged', path },
      );
      continue;
    }
    const name = entity.name;
    const parentPath = path.slice(0, path.lastIndexOf('/')) || '/';
    const parentKind =
      parentPath === '/' ? 'folder' : (creating.get(parentPath) ?? byPath.get(parentPath)?.kind);
    const types = kind === 'folder' ? meta.folderTypes : meta.taskTypes;
    const type = types.find((t) => t.name.toLowerCase() === typeText.toLowerCase());
    if (!NAME.test(name))
      fail(`"${name}" is not a valid name (letters, digits and _; dots and hyphens inside)`);
    else if (parentKind !== 'folder')
      fail(parentPath === '/' ? 'a task needs a folder' : `there is no folder ${parentPath} to create it in`);
    else if (kind === 'task' && parentPath === '/') fail('a task needs a folder');
    else if (!type)
      fail(
        typeText
          ? `"${typeText}" is not a ${kind} type of this project`
          : `a new ${kind} needs its type in the Type column`,
      );
    else {
      creating.set(path, kind);
      rows.push({ line, action: 'create', kind, path, type: type.name, change });
    }
  }
  rows.sort((a, b) => a.line - b.line);
  return { rows, problems };
}

/** The operations applying a plan, creates parents first; `create` hands back each new entity's id. */
export function planOperations(
  plan: ImportPlan,
  byPath: Map<string, Entity>,
  batch: {
    create(kind: Kind, data: Record<string, unknown>, path: string): string;
    update(kind: Kind, id: string, data: Record<string, unknown>, path: string): void;
  },
): void {
  const ids = new Map<string, string>();
  const creates = plan.rows
    .filter((r): r is Extract<PlannedRow, { action: 'create' }> => r.action === 'create')
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  for (const row of creates) {
    const parentPath = row.path.slice(0, row.path.lastIndexOf('/'));
    const parentId = parentPath ? (ids.get(parentPath) ?? byPath.get(parentPath)!.id) : null;
    const name = row.path.slice(row.path.lastIndexOf('/') + 1);
    const data = updateData(row.kind, row.change);
    ids.set(
      row.path,
      batch.create(
        row.kind,
        row.kind === 'folder'
          ? { ...data, name, folderType: row.type, parentId }
          : { ...data, name, taskType: row.type, folderId: parentId },
        row.path,
      ),
    );
  }
  for (const row of plan.rows)
    if (row.action === 'update')
      batch.update(row.entity.kind, row.entity.id, updateData(row.entity.kind, row.change), row.entity.path);
}
