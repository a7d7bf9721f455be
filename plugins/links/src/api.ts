import { createServiceRef } from '@pipewright/sdk';
import type { RawBuilder } from 'kysely';

/** A link between two entities of a project, as GraphQL and the REST API show it. */
export interface LinkRecord {
  id: string;
  name: string | null;
  linkType: string;
  inputId: string;
  inputType: string;
  outputId: string;
  outputType: string;
  author: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

/** Which links to read: those touching these entities, in a direction, of these types or names. */
export interface LinkQuery {
  entityIds?: string[];
  direction?: 'in' | 'out';
  linkTypes?: string[];
  names?: string[];
  /** POSIX regular expression the link name matches. */
  nameEx?: string;
}

/** Provided by the links addon: reading links. */
export interface LinkDirectory {
  /**
   * Links of a project in creation order: all of them, or those touching the given entities (direction in: the
   * entity is the output; out: the input), of the given link types (full names or the bare type).
   */
  query(projectName: string, query: LinkQuery): Promise<LinkRecord[]>;
  /**
   * An SQL condition on an entity id, for EntityQuery.restrict: whether the entity has links in (it is an output),
   * out (an input), either (any), both, or none.
   */
  presence(
    projectName: string,
    mode: 'none' | 'in' | 'out' | 'any' | 'both',
  ): (id: RawBuilder<unknown>) => RawBuilder<boolean>;
  /** Full names ("type|input|output") of the link types the project's links use. */
  usedTypes(projectName: string): Promise<string[]>;
}

/** The links service of the links addon. */
export const linksRef = createServiceRef<LinkDirectory>({ addon: 'links', id: 'links' });
