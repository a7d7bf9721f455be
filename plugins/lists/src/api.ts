import { createServiceRef } from '@pipewright/sdk';
import type { RequestUser } from '@pipewright/sdk';
import type { VisibleList } from './directory.js';
import type { EntityList } from './schemas.js';

/** Provided by the lists addon: the lists of a project as a caller may see them. */
export interface EntityListDirectory {
  /** Lists the caller may read (level 10 or more), in creation order, each with its count and the caller's level. */
  visible(caller: RequestUser, projectName: string): Promise<VisibleList[]>;
  /** One list with its items, as GET /api/projects/{p}/lists/{id} answers (404, 403 as that route does). */
  get(caller: RequestUser, projectName: string, id: string): Promise<EntityList>;
}

/** The lists service of the lists addon. */
export const listsRef = createServiceRef<EntityListDirectory>({ addon: 'lists', id: 'lists' });
