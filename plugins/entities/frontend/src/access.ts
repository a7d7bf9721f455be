import { useEffect, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { pathInScope, type FolderScope } from '@pipewright/sdk/ui';
import type { Entity } from './model';

// What the user may do in the project, read once per project from the server (GET /api/users/me/access/{project}:
// the folder scopes the server checks every write against), so the overview offers only what it would accept.

type Scope = FolderScope | null;
export type Act = 'create' | 'update' | 'publish' | 'delete';

export interface ProjectAccess {
  userName: string;
  /** Whether a version may name another author than the user. */
  publishForOthers: boolean;
  folders: Record<Act, Scope>;
  /** Folders holding a task assigned to the user: read only when a scope grants them. */
  assignedFolders: Set<string>;
}

type Entry = { promise: Promise<ProjectAccess | null>; value?: ProjectAccess | null };
const cache = new WeakMap<PipewrightClient, Map<string, Entry>>();

async function read(client: PipewrightClient, project: string): Promise<ProjectAccess | null> {
  const answer = await client.GET('/api/users/me/access/{project_name}', {
    params: { path: { project_name: project } },
  });
  const assignedFolders = new Set<string>();
  if (Object.values(answer.folders).some((scope) => scope?.assigned)) {
    const data = await client.graphql<{
      project: { tasks: { edges: { node: { folderId: string } }[] } };
    }>(
      `query Assigned($project: String!, $me: [String!]) {
        project(name: $project) { tasks(assigneesAny: $me) { edges { node { folderId } } } }
      }`,
      { project, me: [answer.userName] },
    );
    for (const edge of data.project.tasks.edges) assignedFolders.add(edge.node.folderId);
  }
  return {
    userName: answer.userName,
    publishForOthers: answer.publishForOthers,
    folders: answer.folders,
    assignedFolders,
  };
}

/**
 * The user's access in a project; null while it is read, and when the server does not say (without the access
 * addon nothing is restricted, and the server still has the last word on every write).
 */
export function useProjectAccess(client: PipewrightClient, project: string): ProjectAccess | null {
  let projects = cache.get(client);
  if (!projects) cache.set(client, (projects = new Map()));
  let entry = projects.get(project);
  if (!entry) {
    const created: Entry = { promise: read(client, project).catch(() => null) };
    created.promise.then((value) => (created.value = value));
    projects.set(project, (entry = created));
  }
  const [access, setAccess] = useState<ProjectAccess | null>(entry.value ?? null);
  useEffect(() => {
    let live = true;
    void entry.promise.then((value) => live && setAccess(value));
    return () => {
      live = false;
    };
  }, [entry]);
  return access;
}

/** Read the user's access again when next asked (Refresh: an administrator may have changed their groups). */
export function forgetProjectAccess(client: PipewrightClient, project: string): void {
  cache.get(client)?.delete(project);
}

const trimmed = (path: string) => path.replace(/^\/+|\/+$/g, '');

const nowhere = (scope: NonNullable<Scope>) =>
  !scope.assigned && scope.subtree.length === 0 && scope.below.length === 0;

/** Whether a folder (id and path) lies where the user may act this way. */
function mayAt(access: ProjectAccess, act: Act, folder: { id: string; path: string }): boolean {
  const scope = access.folders[act];
  if (!scope) return true;
  return (
    pathInScope(scope, trimmed(folder.path)) || (scope.assigned && access.assignedFolders.has(folder.id))
  );
}

/** Whether some new folder directly in this one (null: at the top) could lie in the scope. */
function mayCreateFolderIn(access: ProjectAccess, parent: Entity | null): boolean {
  const scope = access.folders.create;
  if (!scope) return true;
  const path = parent ? trimmed(parent.path) : '';
  const under = (p: string) => path === p || path.startsWith(`${p}/`);
  // A listed path further down can be reached by creating the folder that leads to it.
  const leadsTo = (p: string) => path === '' || p.startsWith(`${path}/`);
  return (
    scope.subtree.some((p) => under(p) || leadsTo(p)) ||
    scope.below.some(under) ||
    (parent !== null && scope.assigned && access.assignedFolders.has(parent.id))
  );
}

function reason(access: ProjectAccess, act: Act, doing: string, place: string): string {
  const scope = access.folders[act];
  const where = scope && nowhere(scope) ? 'in this project' : place;
  return `Your access groups do not allow ${doing} ${where}`;
}

/** The folder whose scope decides about an entity: a folder itself, a task its folder. */
const folderOf = (entity: Entity) =>
  entity.kind === 'folder'
    ? entity
    : { id: entity.parentId ?? '', path: entity.path.replace(/\/[^/]*$/, '') };

/** Why the user may not create a folder in `parent` nor at the top, or null when they may somewhere. */
export function newFolderRefusal(access: ProjectAccess | null, parent: Entity | null): string | null {
  if (!access || mayCreateFolderIn(access, parent) || mayCreateFolderIn(access, null)) return null;
  return reason(
    access,
    'create',
    'creating folders',
    parent ? `in ${parent.path}` : 'at the top of the project',
  );
}

/** Why the user may not create tasks in this folder, or null when they may. */
export function newTaskRefusal(access: ProjectAccess | null, folder: Entity): string | null {
  if (!access || mayAt(access, 'create', folder)) return null;
  return reason(access, 'create', 'creating tasks', `in ${folder.path}`);
}

/** Why the user may not do this to every one of these entities, or null when they may. */
export function refusalFor(
  access: ProjectAccess | null,
  act: Act,
  doing: string,
  entities: Entity[],
): string | null {
  const refused = access && entities.find((entity) => !mayAt(access, act, folderOf(entity)));
  if (!access || !refused) return null;
  return reason(access, act, doing, `in ${folderOf(refused).path}`);
}
