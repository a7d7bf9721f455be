import { createServiceRef } from '@pipewright/sdk';
import type { ProjectRequest, RequestUser } from '@pipewright/sdk';

/** A project as other addons see it. */
export interface ProjectRecord {
  name: string;
  code: string;
  library: boolean;
  active: boolean;
  /** Effective values: attribute defaults overlaid with the project's own. */
  attrib: Record<string, unknown>;
  folderTypes: { name: string; [field: string]: unknown }[];
  taskTypes: { name: string; [field: string]: unknown }[];
  statuses: { name: string; state?: string; scope?: string[]; [field: string]: unknown }[];
  tags: { name: string; [field: string]: unknown }[];
  linkTypes: { name: string; [field: string]: unknown }[];
  config: Record<string, unknown>;
  data: Record<string, unknown>;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

/** What changed in a project, for addons that keep data derived from it. */
export interface ProjectChange {
  attrib: boolean;
  /** Old name to new name, from items sent with an original_name that differs from their name. */
  renamed: {
    statuses: Record<string, string>;
    folderTypes: Record<string, string>;
    taskTypes: Record<string, string>;
  };
}

/** Provided by the projects addon. */
export interface ProjectDirectory {
  /** A project without an access check, for addons that checked access their own way; null when missing. */
  find(name: string): Promise<ProjectRecord | null>;
  /** Names of the projects the caller may see, by name. */
  visibleNames(caller: RequestUser, filter?: { active?: boolean; library?: boolean }): Promise<string[]>;
  /** The project the caller may use: NotFound when it does not exist, Forbidden without access. */
  require(caller: RequestUser, name: string): Promise<ProjectRecord>;
  /** The project a route's path names, for the request's caller: as require answers it. */
  requireFor(request: ProjectRequest): Promise<ProjectRecord>;
  /**
   * Change a project as PATCH /api/projects/{name} does (managers; attrib, data and config merge), with its
   * entity.project.changed event in the same unit of work.
   */
  patch(
    caller: RequestUser,
    name: string,
    patch: Partial<
      Pick<
        ProjectRecord,
        'folderTypes' | 'taskTypes' | 'statuses' | 'tags' | 'linkTypes' | 'attrib' | 'config'
      >
    > & { data?: Record<string, unknown> },
  ): Promise<string>;
  /** The root paths a site uses for a project on a platform: the project's roots overridden by the site's own. */
  siteRoots(
    projectName: string,
    siteId: string | null,
    platform: 'windows' | 'linux' | 'darwin',
  ): Promise<Record<string, string>>;
  /** Run a hook inside the unit of work that changes a project, after the change is written. */
  onChange(hook: (project: ProjectRecord, change: ProjectChange) => Promise<void>): void;
}

/** The projects service of the projects addon. */
export const projectsRef = createServiceRef<ProjectDirectory>({ addon: 'projects', id: 'projects' });
