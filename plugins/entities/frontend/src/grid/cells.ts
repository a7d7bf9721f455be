import { personLabel, type Person } from '../Assignees';
import type { Column } from './columns';
import { formatValue, statusesFor, type Entity, type ProjectMeta } from '../model';

// What spreadsheet work needs of a cell: its text (copied, exported) and the reverse, a typed text turned into the
// change it stands for, checked the way the column's values are (a known status, a whole number, ...). Copy, paste,
// CSV export and CSV import all go through these, so a copied block pastes back unchanged.

/** A cell's text as the grid shows it; empty for a cell the entity's kind does not have. */
export function cellText(entity: Entity, column: Column, people: Person[] = []): string {
  switch (column.kind) {
    case 'name':
      return entity.name;
    case 'type':
      return entity.type;
    case 'status':
      return entity.status;
    case 'assignees':
      return entity.kind === 'task' ? entity.assignees.map((n) => personLabel(people, n)).join(', ') : '';
    case 'attrib': {
      const attribute = column.attribute!;
      if (!attribute.scope.includes(entity.kind)) return '';
      const value = entity.attrib[attribute.name];
      const option = attribute.data.enum?.find((o) => o.value === value);
      return option ? option.label : formatValue(value);
    }
  }
}

/** Part of an update: the entity's own fields, or attributes (null clears one, so it is inherited again). */
export interface CellChange {
  status?: string;
  type?: string;
  assignees?: string[];
  attrib?: Record<string, unknown>;
}

export type Parsed = { change: CellChange | null } | { error: string };

const YES = new Set(['yes', 'true', '1', 'y']);
const NO = new Set(['no', 'false', '0', 'n']);

/**
 * The change a text typed or pasted into a cell makes: null when it changes nothing, an error said for people when
 * the column cannot take it. A cell of a column the entity's kind does not have takes only an empty text.
 */
export function parseCell(
  entity: Entity,
  column: Column,
  text: string,
  meta: ProjectMeta,
  people: Person[] = [],
): Parsed {
  const value = text.trim();
  if (value === cellText(entity, column, people).trim()) return { change: null };
  switch (column.kind) {
    case 'name':
      return { error: 'names are changed with Rename, not by pasting' };
    case 'type': {
      const types = entity.kind === 'folder' ? meta.folderTypes : meta.taskTypes;
      const found = types.find((t) => t.name.toLowerCase() === value.toLowerCase());
      if (!found)
        return { error: `"${value}" is not a ${entity.kind} type of this project (${names(types)})` };
      return { change: found.name === entity.type ? null : { type: found.name } };
    }
    case 'status': {
      const allowed = statusesFor(meta, entity.kind);
      const found = allowed.find((s) => s.name.toLowerCase() === value.toLowerCase());
      if (!found) return { error: `"${value}" is not a status of this project (${names(allowed)})` };
      return { change: found.name === entity.status ? null : { status: found.name } };
    }
    case 'assignees': {
      if (entity.kind !== 'task') return { error: 'only tasks have assignees' };
      const wanted = value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      const assignees: string[] = [];
      for (const part of wanted) {
        const person = people.find(
          (p) =>
            p.name.toLowerCase() === part.toLowerCase() || p.fullName?.toLowerCase() === part.toLowerCase(),
        );
        if (!person) return { error: `"${part}" is not a user who can be assigned` };
        assignees.push(person.name);
      }
      const same =
        assignees.length === entity.assignees.length && assignees.every((a) => entity.assignees.includes(a));
      return { change: same ? null : { assignees } };
    }
    case 'attrib': {
      const attribute = column.attribute!;
      const name = attribute.name;
      const title = attribute.data.title || name;
      if (!attribute.scope.includes(entity.kind))
        return value === '' ? { change: null } : { error: `a ${entity.kind} has no ${title}` };
      // An emptied cell clears the value set here, so it is inherited again.
      if (value === '')
        return { change: entity.ownAttrib.includes(name) ? { attrib: { [name]: null } } : null };
      const typed = typedValue(attribute.data, value);
      if ('error' in typed) return typed;
      const same = entity.ownAttrib.includes(name) && entity.attrib[name] === typed.value;
      return { change: same ? null : { attrib: { [name]: typed.value } } };
    }
  }
}

function typedValue(
  data: NonNullable<Column['attribute']>['data'],
  text: string,
): { value: unknown } | { error: string } {
  if (data.enum?.length) {
    const option = data.enum.find(
      (o) =>
        o.label.toLowerCase() === text.toLowerCase() || String(o.value).toLowerCase() === text.toLowerCase(),
    );
    return option
      ? { value: option.value }
      : { error: `"${text}" is not one of ${data.enum.map((o) => o.label).join(', ')}` };
  }
  switch (data.type) {
    case 'integer': {
      const number = Number(text);
      return Number.isInteger(number) ? { value: number } : { error: `"${text}" is not a whole number` };
    }
    case 'float': {
      const number = Number(text);
      return Number.isFinite(number) ? { value: number } : { error: `"${text}" is not a number` };
    }
    case 'boolean':
      if (YES.has(text.toLowerCase())) return { value: true };
      if (NO.has(text.toLowerCase())) return { value: false };
      return { error: `"${text}" is not yes or no` };
    case 'datetime': {
      const time = new Date(text);
      return Number.isNaN(time.getTime())
        ? { error: `"${text}" is not a date` }
        : { value: time.toISOString() };
    }
    default:
      return { value: text };
  }
}

const names = (list: { name: string }[]) =>
  list
    .slice(0, 6)
    .map((item) => item.name)
    .join(', ') + (list.length > 6 ? ', …' : '');

/** Merge a cell's change into the update of its entity. */
export function mergeChange(into: CellChange, change: CellChange): CellChange {
  return {
    ...into,
    ...change,
    ...(into.attrib || change.attrib ? { attrib: { ...into.attrib, ...change.attrib } } : {}),
  };
}

/** The update the server takes for a change of an entity of this kind. */
export function updateData(kind: Entity['kind'], change: CellChange): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (change.status !== undefined) data.status = change.status;
  if (change.type !== undefined) data[kind === 'folder' ? 'folderType' : 'taskType'] = change.type;
  if (change.assignees !== undefined) data.assignees = change.assignees;
  if (change.attrib) data.attrib = change.attrib;
  return data;
}

/** Tab-separated values, as spreadsheets put on the clipboard (a value with a tab, newline or quote is quoted). */
export function toTsv(matrix: string[][]): string {
  const quote = (text: string) => (/[\t\n\r"]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  return matrix.map((row) => row.map(quote).join('\t')).join('\n');
}

/** Rows of fields from delimited text (tabs from a clipboard, commas from a CSV file), quotes understood. */
export function parseDelimited(text: string, separator: '\t' | ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === separator) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
