import { sql, type RawBuilder } from 'kysely';

/**
 * "This folder or one below it", as a byte-wise range over the text_pattern_ops path index: every path that starts
 * with "a/b/" sorts between "a/b/" and "a/b0" ('0' follows '/'), so no LIKE escaping and no full scan.
 */
export function inSubtree(column: RawBuilder<unknown>, path: unknown): RawBuilder<boolean> {
  return sql<boolean>`(${column} = ${path} OR (${column} ~>=~ (${path} || '/') AND ${column} ~<~ (${path} || '0')))`;
}
