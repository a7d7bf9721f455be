import type { Problem } from '@pipewright/sdk';
import type { Row } from './store.js';

// A project's roots: config.roots holds root name -> platform -> path; a site may set its own path per root.

/** The platforms a root has a path for. */
export type Platform = 'windows' | 'linux' | 'darwin';

/** Each root's path on a platform ('' where the root names none for it). */
export function platformRoots(row: Row, platform: Platform): Record<string, string> {
  return Object.fromEntries(
    Object.entries((row.config.roots ?? {}) as Record<string, Record<string, string>>).map(
      ([root, paths]) => [root, paths[platform] ?? ''],
    ),
  );
}

/** Problems for roots a site sets that the project does not have. */
export function unknownRootProblems(row: Row, roots: Record<string, string>): Problem[] {
  const known = Object.keys((row.config.roots ?? {}) as Record<string, unknown>);
  return Object.keys(roots)
    .filter((root) => !known.includes(root))
    .map((root) => ({
      loc: ['body', root],
      msg: `project ${row.name} has no root named ${root}`,
      type: 'unknown_root',
    }));
}
