import { GraphQLError } from 'graphql';
import type { Connection } from './api.js';

/** Relay paging arguments as clients send them. */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** How much to read and from which end: first/after read forwards, last/before backwards. */
export interface Page {
  limit: number;
  fromEnd: boolean;
  after: string | null;
  before: string | null;
}

/** The page a connection answers when the query names neither first nor last, and the largest it may ask. */
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 10_000;

export function readPage(args: PageArgs): Page {
  for (const key of ['first', 'last'] as const) {
    const value = args[key];
    if (value != null && (value < 0 || value > MAX_PAGE)) {
      throw new GraphQLError(`${key} must be between 0 and ${MAX_PAGE}`, {
        extensions: { status: 422, code: 'invalid-page' },
      });
    }
  }
  const fromEnd = args.last != null && args.first == null;
  return {
    limit: (fromEnd ? args.last : args.first) ?? DEFAULT_PAGE,
    fromEnd,
    after: args.after ?? null,
    before: args.before ?? null,
  };
}

/** A connection from one page of items; hasMore says whether more lie beyond the page in its direction. */
export function toConnection<T>(
  items: { cursor: string; node: T }[],
  hasMore: boolean,
  page: Page,
): Connection<T> {
  return {
    edges: items.map(({ node, cursor }) => ({ node, cursor })),
    pageInfo: {
      hasNextPage: page.fromEnd ? page.before !== null : hasMore,
      hasPreviousPage: page.fromEnd ? hasMore : page.after !== null,
      startCursor: items[0]?.cursor ?? null,
      endCursor: items.at(-1)?.cursor ?? null,
    },
  };
}

/**
 * A connection from rows read with LIMIT page.limit + 1 in the page's direction (newest first when it reads from the
 * end): the extra row only tells that there is more, and the page is answered in ascending order.
 */
export function rowsToConnection<R, T>(
  rows: R[],
  page: Page,
  edge: (row: R) => { cursor: string; node: T },
): Connection<T> {
  const kept = rows.slice(0, page.limit);
  if (page.fromEnd) kept.reverse();
  return toConnection(kept.map(edge), rows.length > page.limit, page);
}

/** Page a list that is already in memory and in order (projects, users, links), by position cursors. */
export function pageList<T>(list: T[], page: Page, keyOf: (item: T) => string): Connection<T> {
  const position = (cursor: string | null) =>
    cursor === null ? -1 : list.findIndex((item) => encode(keyOf(item)) === cursor);
  let start = 0;
  let end = list.length;
  if (page.after !== null) start = position(page.after) + 1;
  if (page.before !== null) {
    const at = position(page.before);
    if (at >= 0) end = at;
  }
  const window = list.slice(start, end);
  const chosen = page.fromEnd
    ? window.slice(Math.max(0, window.length - page.limit))
    : window.slice(0, page.limit);
  const hasMore = window.length > chosen.length;
  return toConnection(
    chosen.map((node) => ({ node, cursor: encode(keyOf(node)) })),
    hasMore,
    page,
  );
}

const encode = (key: string) => Buffer.from(JSON.stringify([key])).toString('base64');
