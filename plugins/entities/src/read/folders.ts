import { sql } from 'kysely';
import { Utf8Writer, type Database, type FolderScope, type RequestUser } from '@pipewright/sdk';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import { hideAttributes, type ReadAccess } from '../access.js';
import { FIELD, folderRecords, hex, RECORD, TASK } from './folder-records.js';
import { FolderTree, taskMembers, type TreeFilter } from './hierarchy.js';
import type { HierarchyCache } from './hierarchy-cache.js';

// The project's folders in the two shapes clients read the whole tree in: the flat list (GET .../folders) and the
// hierarchy (GET .../hierarchy). Both answers are written here as JSON bytes, in their schemas' shapes.

/** The flat folder list answer; attributes (inherited values overlaid on base) only when asked for. */
export async function folderList(
  db: Database,
  schema: string,
  caller: RequestUser,
  access: ReadAccess,
  base: Record<string, unknown>,
  withAttrib: boolean,
): Promise<Buffer> {
  const records = await folderRecords(db, schema, caller, access.scope, [
    hex('f.id'),
    sql`coalesce(${hex('f.parent_id')}, '')`,
    sql`f.path`,
    sql`coalesce(to_json(f.label)::text, 'null')`,
    sql`f.folder_type`,
    sql`f.status`,
    sql`to_json(f.tags)::text`,
    sql`to_char(f.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    ...(withAttrib
      ? [
          sql`(${JSON.stringify(base)}::jsonb || f.inherited || f.attrib)::text`,
          sql`to_json(ARRAY(SELECT jsonb_object_keys(f.attrib)))::text`,
        ]
      : []),
  ]);
  return folderListBody(records, withAttrib, access.attributes);
}

/**
 * The hierarchy answer. The tree as everyone who sees all of it gets it is kept, and so is its whole answer, as
 * bytes (encoded once, not again for every request: sending one of 100,000 folders gets about three times faster).
 */
export async function hierarchy(
  db: Database,
  schema: string,
  cache: HierarchyCache,
  caller: RequestUser,
  project: ProjectRecord,
  readScope: FolderScope | null,
  filter: TreeFilter | undefined,
): Promise<Buffer> {
  const read = async () =>
    FolderTree.fromRecords(
      await folderRecords(db, schema, caller, readScope, [
        hex('f.id'),
        sql`f.path`,
        sql`coalesce(to_json(f.label)::text, 'null')`,
        sql`f.status`,
        sql`f.folder_type`,
      ]),
    );
  const tree = readScope ? await read() : await cache.get(project.name, read);
  return filter || readScope ? tree.write(project.name, filter) : tree.answer(project.name);
}

/** Remembers the JSON written for each key: statuses, folder types and sets of task names repeat across thousands. */
function jsonOnce(): (key: string, write: (key: string) => string) => string {
  const written = new Map<string, string>();
  return (key, write) => {
    let text = written.get(key);
    if (text === undefined) written.set(key, (text = write(key)));
    return text;
  };
}

/** hasTasks and taskNames from folderRecords' names: sorted byte by byte (names are ASCII). */
const taskFields = (names: string): string => taskMembers(names ? names.split(TASK).sort() : []);

/** The flat list answer from folderRecords; attributes narrowed to the caller's read list when there is one. */
function folderListBody(records: string, withAttrib: boolean, visible: string[] | null): Buffer {
  const list = records ? records.split(RECORD).map((record) => record.split(FIELD)) : [];
  // Whether a folder has children: whether any listed folder names it as parent.
  const parents = new Set(list.map((fields) => fields[1]));
  const json = jsonOnce();
  const out = new Utf8Writer(records.length * 2);
  out.write(`{"detail":"${list.length} folders","folders":[`);
  list.forEach((fields, index) => {
    const tasks = json(fields.pop()!, taskFields);
    const [id, parentId, path, labelJson, folderType, status, tagsJson, updatedAt, attribJson, ownJson] =
      fields;
    const names = path.split('/');
    let attrib = '';
    if (withAttrib) {
      const shown = visible
        ? hideAttributes({ attrib: JSON.parse(attribJson), ownAttrib: JSON.parse(ownJson) }, visible)
        : null;
      attrib = shown
        ? `,"attrib":${JSON.stringify(shown.attrib)},"ownAttrib":${JSON.stringify(shown.ownAttrib)}`
        : `,"attrib":${attribJson},"ownAttrib":${ownJson}`;
    }
    out.write(
      `${index ? ',' : ''}{"id":"${id}","path":${JSON.stringify(`/${path}`)},"parentId":${parentId ? `"${parentId}"` : 'null'},` +
        `"parents":${JSON.stringify(names.slice(0, -1))},"name":${JSON.stringify(names[names.length - 1])},` +
        `"label":${labelJson},"folderType":${JSON.stringify(folderType)},"hasChildren":${parents.has(id)},${tasks},` +
        `"status":${JSON.stringify(status)},` +
        `"tags":${tagsJson},"updatedAt":"${updatedAt}"${attrib}}`,
    );
  });
  out.write(']}');
  return out.result();
}
