import type { Entity, ProjectMeta } from '../model';
import { NAME, summary, taskName } from './names';

/** One entity a bulk creation makes; `parent` is an existing folder's id, or the key of one made in the same go. */
export interface Planned {
  key: string;
  kind: Entity['kind'];
  name: string;
  type: string;
  parent: { id: string | null } | { key: string };
}

export interface FolderRun {
  /** Where new folders go: the chosen folder, or null for the top level. */
  parent: Entity | null;
  /** The numbered names, or why there are none. */
  names: string[] | string;
  /** An optional folder made first, with the numbered ones inside. */
  container: string;
  containerType: string;
  childType: string;
}

/** A container folder (if named) with a run of numbered folders inside; a string says what is wrong. */
export function planFolders({
  parent,
  names,
  container,
  containerType,
  childType,
}: FolderRun): Planned[] | string {
  if (typeof names === 'string') return names;
  if (container && !NAME.test(container)) return `${container} is not a valid name`;
  if (!names.every((n) => NAME.test(n))) return `${names[0]} is not a valid name`;
  const top: Planned[] = container
    ? [
        {
          key: 'container',
          kind: 'folder',
          name: container,
          type: containerType,
          parent: { id: parent?.id ?? null },
        },
      ]
    : [];
  const under = container ? { key: 'container' } : { id: parent?.id ?? null };
  return [
    ...top,
    ...names.map((name): Planned => ({ key: name, kind: 'folder', name, type: childType, parent: under })),
  ];
}

/** Tasks of the chosen types on each chosen folder, but those a folder has already; a string says what is wrong. */
export function planTasks(
  folders: Entity[],
  taskTypes: Set<string>,
  meta: ProjectMeta,
  existingTasks: (folder: Entity) => Set<string>,
): Planned[] | string {
  if (folders.length === 0) return 'Select the folders (shots, assets) the tasks go on first';
  if (taskTypes.size === 0) return 'Choose at least one task type';
  const chosen = meta.taskTypes.filter((t) => taskTypes.has(t.name));
  return folders.flatMap((folder) => {
    const existing = existingTasks(folder);
    return chosen
      .filter((t) => !existing.has(taskName(t.name)))
      .map((t): Planned => ({
        key: `${folder.id}/${t.name}`,
        kind: 'task',
        name: taskName(t.name),
        type: t.name,
        parent: { id: folder.id },
      }));
  });
}

/** What a valid plan will make, in a sentence. */
export function folderPreview(run: FolderRun, plan: Planned[]): string {
  const where = run.parent ? run.parent.path : 'the top level of the project';
  const start = run.container
    ? `${run.container} (${run.containerType}) in ${where}, with `
    : `In ${where}: `;
  const names = typeof run.names === 'string' ? [] : run.names;
  return `${start}${plan.length - (run.container ? 1 : 0)} ${run.childType} folders: ${summary(names)}`;
}

export function taskPreview(folders: Entity[], plan: Planned[]): string {
  if (plan.length === 0) return 'Every selected folder already has these tasks.';
  const on = `${folders.length} folder${folders.length === 1 ? '' : 's'}`;
  return `${plan.length} tasks on ${on}: ${summary([...new Set(plan.map((p) => p.name))])}`;
}
