import { deadlineOf, type Deadline } from '@pipewright/sdk/ui';
import { statusOf, type Entity, type ProjectMeta } from './model';

// How far along a task is, by the one rule of lateness the dashboard and the home screen use too (sdk
// deadlines): overdue, due soon, or done by its status's state. Folders have no progress of their own here.

/** The progress filter's choices; '' is any. */
export type Progress = '' | 'overdue' | 'due-soon' | 'done';

export const PROGRESS_CHOICES: { value: Exclude<Progress, ''>; label: string }[] = [
  { value: 'overdue', label: 'Overdue' },
  { value: 'due-soon', label: 'Due soon' },
  { value: 'done', label: 'Done' },
];

export const isProgress = (value: string): value is Progress =>
  value === '' || PROGRESS_CHOICES.some((c) => c.value === value);

/** A task's deadline mark, if it is overdue or due soon at `now`. */
export function taskDeadline(entity: Entity, meta: ProjectMeta, now: number): Deadline | null {
  if (entity.kind !== 'task') return null;
  return deadlineOf(entity.attrib.endDate, statusOf(meta, entity.status)?.state, now);
}

/** Whether an entity passes the progress filter: only tasks do, when one is set. */
export function hasProgress(entity: Entity, progress: Progress, meta: ProjectMeta, now: number): boolean {
  if (!progress) return true;
  if (entity.kind !== 'task') return false;
  if (progress === 'done') return statusOf(meta, entity.status)?.state === 'done';
  return taskDeadline(entity, meta, now)?.kind === progress;
}
