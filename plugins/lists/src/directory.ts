import type { Level } from './access-level.js';
import type { ListSummary } from './schemas.js';

/** A list the caller may read, with their level on it (what the lists service offers GraphQL). */
export interface VisibleList extends ListSummary {
  accessLevel: Level;
  owner: string | null;
  active: boolean;
  tags: string[];
}
