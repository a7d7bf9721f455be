import type { Static } from '@pipewright/sdk';
import type { ProjectPatch } from './schemas.js';

// How a project's fields map to its row: the columns written, link types as the wire shows them, and renames.

type Json = Record<string, unknown>;

/** Fields of a project other than its name, as the API writes them. */
export type ProjectFields = Static<typeof ProjectPatch>;

const LAYOUT_COLUMNS = {
  folderTypes: 'folder_types',
  taskTypes: 'task_types',
  linkTypes: 'link_types',
  statuses: 'statuses',
  tags: 'tags',
} as const;

/**
 * Items sent with an original_name different from their name are renames (a status called "WIP" becoming
 * "In progress"): collect them, and store the items without the marker.
 */
export function takeRenames(items: Json[] | undefined): {
  items: Json[] | undefined;
  renamed: Record<string, string>;
} {
  if (!items) return { items, renamed: {} };
  const renamed: Record<string, string> = {};
  const cleaned = items.map(({ original_name: original, ...item }) => {
    if (typeof original === 'string' && original !== item.name) renamed[original] = String(item.name);
    return item;
  });
  return { items: cleaned, renamed };
}

/**
 * A link type as AYON's project model sends it: camelCase fields. Stored items may be in either spelling (AYON's
 * model takes both), and older ones carry only the composed name "type|input|output".
 */
export function linkTypeOnWire(item: Json): Json {
  const [type, input, output] = String(item.name ?? '').split('|');
  return {
    name: item.name,
    linkType: item.link_type ?? item.linkType ?? type,
    inputType: item.input_type ?? item.inputType ?? input,
    outputType: item.output_type ?? item.outputType ?? output,
    data: item.data ?? {},
  };
}

/** The columns to write for the given fields; absent fields are left out. */
export function columns(fields: ProjectFields): Json {
  const values: Json = {};
  if (fields.code !== undefined) values.code = fields.code;
  if (fields.library !== undefined) values.library = fields.library;
  if (fields.active !== undefined) values.active = fields.active;
  for (const [field, column] of Object.entries(LAYOUT_COLUMNS)) {
    const value = fields[field as keyof typeof LAYOUT_COLUMNS];
    if (value !== undefined) values[column] = JSON.stringify(value);
  }
  for (const field of ['attrib', 'data', 'config'] as const) {
    if (fields[field] !== undefined) values[field] = JSON.stringify(fields[field]);
  }
  return values;
}

export function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e.code !== '23505') return null;
  return `${e.constraint ?? ''} ${e.message ?? ''}`.includes('code') ? 'code' : 'name';
}
