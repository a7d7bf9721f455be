import type { RequestUser } from '@pipewright/sdk';
import type { Level } from './access-level.js';
import type { EntityList, ListSummary } from './schemas.js';

/** A list the caller may read, with their level on it (what the lists service offers GraphQL). */
export interface VisibleList extends ListSummary {
  accessLevel: Level;
  owner: string | null;
  active: boolean;
  tags: string[];
}

/** Provided by the lists addon: the lists of a project as a caller may see them. */
export interface EntityListDirectory {
  /** Lists the caller may read (level 10 or more), in creation order, each with its count and the caller's level. */
  visible(caller: RequestUser, projectName: string): Promise<VisibleList[]>;
  /** One list with its items, as GET /api/projects/{p}/lists/{id} answers (404, 403 as that route does). */
  get(caller: RequestUser, projectName: string, id: string): Promise<EntityList>;
}

declare module '@pipewright/sdk' {
  interface ServiceMap {
    lists: EntityListDirectory;
  }
}
