import type { PipewrightClient } from '@pipewright/sdk/client';
import type { Activity, EntityLabel } from './activity';

// An activity names its entity and the one folder it sits in (as AYON stores it); two sh040 of two sequences look
// alike that way. The folders' full paths are read here, for a whole page of activities in one request.

/** Folder paths ("/ep01/sq010/sh040") by project and folder id. */
export type FolderPaths = Map<string, string>;

const key = (project: string, folderId: string) => `${project}\n${folderId}`;

/** The folder an activity's entity is in, or is. */
function folderOf(activity: Pick<Activity, 'origin' | 'parents'>): EntityLabel | null {
  if (activity.origin?.type === 'folder') return activity.origin;
  return activity.parents.find((parent) => parent.type === 'folder') ?? null;
}

/** The paths of the folders of these activities not yet in `known`, read in one GraphQL request. */
export async function readFolderPaths(
  client: PipewrightClient,
  activities: Activity[],
  known: FolderPaths = new Map(),
): Promise<FolderPaths> {
  const wanted = new Map<string, Set<string>>();
  for (const activity of activities) {
    const folder = folderOf(activity);
    if (!folder || known.has(key(activity.projectName, folder.id))) continue;
    wanted.set(activity.projectName, (wanted.get(activity.projectName) ?? new Set()).add(folder.id));
  }
  const found = new Map(known);
  if (wanted.size === 0) return found;
  const projects = [...wanted];
  const variables: Record<string, unknown> = {};
  const fields = projects.map(([project, ids], i) => {
    variables[`p${i}`] = project;
    variables[`f${i}`] = [...ids];
    return `p${i}: project(name: $p${i}) { folders(ids: $f${i}, first: ${ids.size}) { edges { node { id path } } } }`;
  });
  const declared = projects.map((_, i) => `$p${i}: String!, $f${i}: [String!]`).join(', ');
  const data = await client.graphql<
    Record<string, { folders: { edges: { node: { id: string; path: string } }[] } }>
  >(`query FolderPaths(${declared}) { ${fields.join(' ')} }`, variables);
  projects.forEach(([project], i) => {
    for (const { node } of data[`p${i}`]?.folders.edges ?? []) found.set(key(project, node.id), node.path);
  });
  return found;
}

/**
 * Where an activity's entity is, in full: "trialshow / ep01 / sq010 / sh040 / animation". Without the folder's
 * path (not read yet, or no longer there) the names the activity keeps stand in.
 */
export function placeOf(
  activity: Pick<Activity, 'projectName' | 'origin' | 'parents'>,
  paths: FolderPaths,
): string {
  const folder = folderOf(activity);
  const path = folder ? paths.get(key(activity.projectName, folder.id)) : undefined;
  const chain = [...activity.parents, ...(activity.origin ? [activity.origin] : [])];
  const below = path && folder ? chain.slice(chain.indexOf(folder) + 1) : chain;
  const names = [
    ...(path ? path.split('/').filter(Boolean) : []),
    ...below.map((entity) => entity.label || entity.name),
  ];
  return [activity.projectName, ...names].join(' / ');
}
