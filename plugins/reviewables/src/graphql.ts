import { sql, type RawBuilder } from 'kysely';
import type { Database } from '@pipewright/sdk';

type Node = { id: string; projectName: string };
type Query = { obj: Node };

/**
 * The versions of a project that have review media, with the task and folder they belong to: a reviewable is an
 * activity of type "reviewable" whose origin is the version.
 */
const reviewed = (schema: string) => sql`
  SELECT v.id, v.task_id, v.product_id, p.folder_id, v.creation_order
  FROM ${sql.table(`${schema}.versions`)} v
  JOIN ${sql.table(`${schema}.products`)} p ON p.id = v.product_id
  WHERE EXISTS (
    SELECT 1 FROM ${sql.table(`${schema}.activity_references`)} r
    JOIN ${sql.table(`${schema}.activities`)} a ON a.id = r.activity_id
    WHERE r.reference_type = 'origin' AND r.entity_type = 'version' AND r.entity_id = v.id
      AND a.activity_type = 'reviewable')`;

/** Which column of a reviewed version names the entity that "has reviewables" through it (as AYON counts them). */
const OWNER = {
  FolderNode: 'folder_id',
  TaskNode: 'task_id',
  VersionNode: 'id',
  KanbanNode: 'task_id',
} as const;
type Owner = keyof typeof OWNER;

interface Latest {
  versionId: string;
  productId: string;
}

/**
 * hasReviewables of folders (their products' versions), tasks and kanban cards (their versions) and versions (their
 * own), and the kanban card's newest version with review media; each read once per project for a whole page.
 */
export function reviewableGraphQL(db: Database, schemaName: (project: string) => string) {
  /** For each node: the newest reviewed version through which it has reviewables, or undefined. */
  async function latestReviewed(owner: Owner, queries: Query[]): Promise<(Latest | undefined)[]> {
    const byProject = new Map<string, string[]>();
    for (const { obj } of queries)
      byProject.set(obj.projectName, [...(byProject.get(obj.projectName) ?? []), obj.id]);
    const found = new Map<string, Latest>();
    for (const [project, ids] of byProject) {
      const column: RawBuilder<unknown> = sql.ref(`rv.${OWNER[owner]}`);
      const { rows } = await sql<{ owner: string; version_id: string; product_id: string }>`
        SELECT DISTINCT ON (${column}) ${column} AS owner, rv.id AS version_id, rv.product_id
        FROM (${reviewed(schemaName(project))}) rv
        WHERE ${column} = ANY(${ids}::uuid[])
        ORDER BY ${column}, rv.creation_order DESC`.execute(db);
      // Ids travel without dashes on the wire; the uuid columns answer them with.
      const plain = (id: string) => id.replaceAll('-', '');
      for (const row of rows)
        found.set(`${project}/${plain(row.owner)}`, {
          versionId: plain(row.version_id),
          productId: plain(row.product_id),
        });
    }
    return queries.map(({ obj }) => found.get(`${obj.projectName}/${obj.id}`));
  }

  const hasReviewables = (owner: Owner) => async (queries: Query[]) =>
    (await latestReviewed(owner, queries)).map((latest) => latest !== undefined);

  return {
    loaders: {
      FolderNode: { hasReviewables: hasReviewables('FolderNode') },
      TaskNode: { hasReviewables: hasReviewables('TaskNode') },
      VersionNode: { hasReviewables: hasReviewables('VersionNode') },
      KanbanNode: {
        hasReviewables: hasReviewables('KanbanNode'),
        lastVersionWithReviewableVersionId: async (queries: Query[]) =>
          (await latestReviewed('KanbanNode', queries)).map((latest) => latest?.versionId ?? null),
        lastVersionWithReviewableProductId: async (queries: Query[]) =>
          (await latestReviewed('KanbanNode', queries)).map((latest) => latest?.productId ?? null),
      },
    },
  };
}
