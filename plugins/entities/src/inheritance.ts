import { sql, type RawBuilder } from 'kysely';
import type { Database } from '@pipewright/sdk';

/** Keys of a JSON object that are in the list: how a folder's own values are narrowed to what inherits. */
export function inheritablePart(attrib: RawBuilder<unknown>, keys: string[]): RawBuilder<unknown> {
  return sql`(SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb) FROM jsonb_each(${attrib}) WHERE key = ANY(${keys}::text[]))`;
}

/**
 * Recompute folders.inherited (what each folder gets from its ancestor folders) for one subtree, or for every
 * folder of the project, in one recursive statement; only rows whose value changes are written. Project values are
 * not stored here but overlaid when read, so changing a project attribute rewrites nothing. Answers how many
 * folders it rewrote.
 */
export async function refreshInherited(
  db: Database,
  schema: string,
  keys: string[],
  rootId: string | null = null,
): Promise<number> {
  const base = {};
  const folders = sql.table(`${schema}.folders`);
  // The value the subtree's top folder inherits: from its parent (already correct), or nothing for roots.
  const start = rootId
    ? sql`(SELECT coalesce((SELECT p.inherited || ${inheritablePart(sql`p.attrib`, keys)} FROM ${folders} p WHERE p.id = top.parent_id), ${JSON.stringify(base)}::jsonb))`
    : sql`${JSON.stringify(base)}::jsonb`;
  const written = await sql`
    WITH RECURSIVE tree(id, inh, eff) AS (
      SELECT top.id, ${start}, ${start} || ${inheritablePart(sql`top.attrib`, keys)}
      FROM ${folders} top WHERE ${rootId ? sql`top.id = ${rootId}` : sql`top.parent_id IS NULL`}
      UNION ALL
      SELECT c.id, t.eff, t.eff || ${inheritablePart(sql`c.attrib`, keys)}
      FROM tree t JOIN ${folders} c ON c.parent_id = t.id
    )
    UPDATE ${folders} f SET inherited = tree.inh FROM tree WHERE f.id = tree.id AND f.inherited IS DISTINCT FROM tree.inh
  `.execute(db);
  return Number(written.numAffectedRows ?? 0);
}

/** The project values folders and tasks inherit: effective project attributes narrowed to the inheritable keys. */
export function projectBase(projectAttrib: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(projectAttrib).filter(([key]) => keys.includes(key)));
}
