import { GraphQLError } from 'graphql';
import { isManagerOrAbove } from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectDirectory, ProjectRecord } from '@pipewright/plugin-projects/api';
import { toConnection } from './connection.js';
import type { GraphContext } from './context.js';
import { entityIds } from './entity-args.js';
import { thumbnailOf } from './nodes.js';

interface KanbanArgs {
  last?: number | null;
  before?: string | null;
  projects?: string[] | null;
  assigneesAny?: string[] | null;
  taskIds?: string[] | null;
}

// AYON's board shows up to 2000 tasks unless told otherwise.
const DEFAULT_LAST = 2000;

const encode = (updatedAt: string) => Buffer.from(JSON.stringify([updatedAt])).toString('base64');
function decode(cursor: string): string {
  try {
    const [at] = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
    if (typeof at === 'string' && !Number.isNaN(Date.parse(at))) return at;
  } catch {
    // answered below
  }
  throw new GraphQLError('before is not a cursor this server gave out', {
    extensions: { status: 422, code: 'invalid-cursor' },
  });
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * Tasks of every active project the caller may see, for the kanban board: non-managers see their own tasks only,
 * managers everyone's or those of the users named. Latest due first (undated last), then latest change first.
 */
export function kanbanResolver(entities: EntityDirectory, projects: ProjectDirectory) {
  return async (_: unknown, args: KanbanArgs, ctx: GraphContext) => {
    const last = args.last ?? DEFAULT_LAST;
    const names = await projects.visibleNames(ctx.caller, args.projects?.length ? {} : { active: true });
    const wanted = args.projects?.length ? names.filter((name) => args.projects!.includes(name)) : names;
    const assignees = isManagerOrAbove(ctx.caller) ? (args.assigneesAny ?? undefined) : [ctx.caller.name];
    const before = args.before ? decode(args.before) : null;
    const onlyTasks = args.taskIds?.length ? entityIds(args.taskIds, 'taskIds') : undefined;
    const cards: Record<string, any>[] = [];
    for (const name of wanted) {
      const project = (await projects.find(name)) as ProjectRecord;
      const tasks = await entities.query(name, 'task', {
        ids: onlyTasks,
        assigneesAny: assignees?.length ? assignees : undefined,
        filter: before ? { conditions: [{ key: 'updatedAt', operator: 'lt', value: before }] } : undefined,
        sortBy: 'updatedAt',
        fromEnd: true,
        limit: last,
        caller: ctx.caller,
      });
      if (!tasks.items.length) continue;
      const taskIds = tasks.items.map((item) => item.entity.id);
      const folderIds = [...new Set(tasks.items.map((item) => item.entity.folderId as string))];
      const [folders, thumbnailed] = await Promise.all([
        entities.query(name, 'folder', { ids: folderIds, limit: folderIds.length, folderFlags: false }),
        // The newest version of each task that has a thumbnail.
        entities.query(name, 'version', {
          taskIds,
          per: 'task',
          sortBy: 'version',
          fromEnd: true,
          limit: 1,
          filter: { conditions: [{ key: 'thumbnailId', operator: 'notnull' }] },
          caller: ctx.caller,
        }),
      ]);
      const folderOf = new Map(folders.items.map((item) => [item.entity.id, item.entity]));
      const versionOf = new Map(thumbnailed.items.map((item) => [item.entity.taskId, item.entity.id]));
      for (const { entity: task } of tasks.items) {
        const folder = folderOf.get(task.folderId) ?? {};
        const own = (task.ownAttrib ?? []) as string[];
        cards.push({
          projectName: project.name,
          projectCode: project.code,
          id: task.id,
          name: task.name,
          label: task.label,
          status: task.status,
          tags: task.tags,
          taskType: task.taskType,
          assignees: task.assignees,
          createdAt: task.createdAt,
          updatedAt: task.updatedAt,
          // The task's own end date; its priority as it inherits (task, folders, project).
          dueDate: own.includes('endDate') ? text(task.attrib.endDate) : null,
          priority: text(task.attrib.priority),
          folderId: task.folderId,
          folderName: folder.name ?? '',
          folderLabel: folder.label ?? null,
          folderPath: String(folder.path ?? '').replace(/^\//, ''),
          thumbnailId: task.thumbnailId,
          thumbnail: thumbnailOf(task),
          lastVersionWithThumbnailId: versionOf.get(task.id) ?? null,
        });
      }
    }
    const time = (value: string | null) => (value ? Date.parse(value) : -Infinity);
    cards.sort((a, b) => time(b.dueDate) - time(a.dueDate) || time(b.updatedAt) - time(a.updatedAt));
    const page = cards.slice(0, last);
    return toConnection(
      page.map((node) => ({ node, cursor: encode(node.updatedAt) })),
      cards.length > last,
      { limit: last, fromEnd: true, after: null, before: args.before ?? null },
    );
  };
}
