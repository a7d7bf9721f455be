import { sql, type RawBuilder } from 'kysely';
import {
  isManagerOrAbove,
  type AttributeAccess,
  type FolderAccessKind,
  type FolderAccessPolicy,
  type FolderScope,
  type RequestUser,
} from '@pipewright/sdk';
import { inSubtree } from './subtree.js';

/**
 * The folder whitelists of normal users, as the access addon computes them. Without that addon the project check
 * (an access group in the project) is the only one; admins, managers and service users are never restricted.
 */
export class FolderAccess {
  private policy: FolderAccessPolicy | null = null;

  register(policy: FolderAccessPolicy): void {
    if (this.policy) throw new Error('A folder access policy is already registered');
    this.policy = policy;
  }

  /** Where the caller may do `kind`: null when nothing restricts them. */
  async scope(
    caller: RequestUser | undefined,
    projectName: string,
    kind: FolderAccessKind,
  ): Promise<FolderScope | null> {
    if (!caller || !this.policy || isManagerOrAbove(caller)) return null;
    return this.policy.folderScope(caller, projectName, kind);
  }

  /** Which attributes and fields the caller may read and change: null when nothing restricts them. */
  async attributes(caller: RequestUser | undefined, projectName: string): Promise<AttributeAccess | null> {
    if (!caller || !this.policy || isManagerOrAbove(caller)) return null;
    return this.policy.attributeAccess(caller, projectName);
  }

  /** What a caller's reads are limited to: the rows in their read scope, the attributes they may see. */
  async read(caller: RequestUser | undefined, projectName: string): Promise<ReadAccess> {
    const [scope, attributes] = await Promise.all([
      this.scope(caller, projectName, 'read'),
      this.attributes(caller, projectName),
    ]);
    return { scope, attributes: attributes?.read ?? null };
  }
}

export interface ReadAccess {
  scope: FolderScope | null;
  attributes: string[] | null;
}

/** An entity as the caller may see it: attributes outside their read list are left out of attrib and ownAttrib. */
export function hideAttributes<T extends Record<string, any>>(entity: T, visible: string[] | null): T {
  if (!visible) return entity;
  const attrib = Object.fromEntries(
    Object.entries(entity.attrib ?? {}).filter(([key]) => visible.includes(key)),
  );
  const ownAttrib = Array.isArray(entity.ownAttrib)
    ? entity.ownAttrib.filter((key: string) => visible.includes(key))
    : entity.ownAttrib;
  return { ...entity, attrib, ownAttrib };
}

/** "path lies strictly below parent", as a byte-wise range the text_pattern_ops index serves (see inSubtree). */
const below = (path: RawBuilder<unknown>, parent: unknown) =>
  sql<boolean>`(${path} ~>=~ (${parent} || '/') AND ${path} ~<~ (${parent} || '0'))`;

/**
 * SQL: whether an entity whose folder has this path and id lies in the scope. Reading folders also reveals the
 * ancestors of what the scope allows, so the tree stays navigable down to it.
 */
export function scopeCondition(
  schema: string,
  scope: FolderScope,
  user: string,
  folder: { path: RawBuilder<unknown>; id: RawBuilder<unknown> },
  revealAncestors: boolean,
): RawBuilder<boolean> {
  const t = (name: string) => sql.table(`${schema}.${name}`);
  const assignedFolders = sql`SELECT folder_id FROM ${t('tasks')} WHERE ${user} = ANY(assignees)`;
  const parts: RawBuilder<boolean>[] = [
    ...scope.subtree.map((path) => inSubtree(folder.path, path)),
    ...scope.below.map((path) => below(folder.path, path)),
  ];
  if (scope.assigned) parts.push(sql<boolean>`${folder.id} IN (${assignedFolders})`);
  if (revealAncestors) {
    const allowed = [...scope.subtree, ...scope.below];
    if (allowed.length) {
      parts.push(
        sql<boolean>`EXISTS (SELECT 1 FROM unnest(${allowed}::text[]) AS allowed(path) WHERE ${below(sql`allowed.path`, folder.path)})`,
      );
    }
    if (scope.assigned) {
      parts.push(
        sql<boolean>`EXISTS (SELECT 1 FROM ${t('folders')} a WHERE a.id IN (${assignedFolders}) AND ${below(sql`a.path`, folder.path)})`,
      );
    }
  }
  return parts.length ? sql<boolean>`(${sql.join(parts, sql` OR `)})` : sql<boolean>`false`;
}
