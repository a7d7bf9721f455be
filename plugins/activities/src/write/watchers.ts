import { NotFound, ValidationFailed, type EventInput, type ProjectEntityType } from '@pipewright/sdk';
import type { EntityContext } from '../entity-context.js';
import { watchOf, writeCreate } from './create.js';
import { removeActivity } from './delete.js';
import type { WriteDeps } from './prepared.js';

/** The users named, each once by their stored name; 422 naming every one that does not exist. */
export async function wantedWatchers({ users }: WriteDeps, names: string[]): Promise<string[]> {
  const wanted: string[] = [];
  const problems = [];
  for (const [index, name] of names.entries()) {
    const user = await users.get(name);
    if (!user)
      problems.push({
        loc: ['body', 'watchers', index],
        msg: `User ${name} not found`,
        type: 'value_error.missing',
      });
    else if (!wanted.includes(user.name)) wanted.push(user.name);
  }
  if (problems.length) throw new ValidationFailed(problems);
  return wanted;
}

/**
 * The entity whose watchers are set and, for a task, its versions, which get the same watchers as in AYON: who
 * follows the task follows what is published from it.
 */
export async function watchedEntities(
  { reader }: WriteDeps,
  projectName: string,
  type: ProjectEntityType,
  id: string,
): Promise<EntityContext[]> {
  const context = await reader.context(projectName, type, id);
  if (!context) throw new NotFound(`${type} ${id} not found`);
  const versions: EntityContext[] = [];
  if (type === 'task') {
    for (const version of await reader.list(projectName, 'version', { taskIds: [id] }, 1000)) {
      const versionContext = await reader.context(projectName, 'version', version.id);
      if (versionContext) versions.push(versionContext);
    }
  }
  return [context, ...versions];
}

/** Make exactly these users watch the entity: watch activities of the others go, the missing ones are made. */
export async function rewatch(
  deps: WriteDeps,
  projectName: string,
  target: EntityContext,
  wanted: string[],
  by: { user: string },
): Promise<EventInput[]> {
  const out: EventInput[] = [];
  const now = await deps.store.watchers(projectName, target.origin.id);
  const removed = now.filter((name) => !wanted.includes(name));
  for (const row of await deps.store.watchActivities(projectName, target.origin.id, removed))
    out.push(...(await removeActivity(deps, projectName, row, by.user)).events);
  for (const name of wanted.filter((n) => !now.includes(n)))
    out.push(...(await writeCreate(deps, watchOf(target, name, by.user, projectName))).events);
  return out;
}
