import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus, EventMessage, ProjectEntityType } from '@pipewright/sdk';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import type { EntityReader } from './entity-context.js';
import { mentionLink } from './markdown.js';
import type { ActivityService, NewActivity } from './service.js';

/** Entity types whose status changes become activities, as in AYON. */
const WITH_STATUS: ProjectEntityType[] = ['folder', 'task', 'product', 'version'];

/**
 * A stable activity id for what one event causes: every server process hears an event relayed through Redis, and
 * the second insert of the same id is skipped, so each change makes its activity once.
 */
function idFor(eventId: string, ...parts: string[]): string {
  return createHash('sha256')
    .update([eventId, ...parts].join(':'))
    .digest('hex')
    .slice(0, 32);
}

/**
 * What tells the notices of one action apart from others: the events of one write (a bulk /operations request,
 * one PATCH) share their author, sender and time, so the inbox can show eight assignments as one notice.
 */
function batchOf(message: EventMessage): string {
  return createHash('sha256')
    .update([message.createdAt, message.user ?? '', message.sender ?? ''].join(':'))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Turns entity events into activities: status and attribute changes, assignees added and removed, versions
 * published. They
 * come from every write path (REST, /operations, GraphQL) because they come from the entities addon's events.
 * Events are handled one at a time, in order; what a change changed from is in the entity event's payload.
 */
export class EntityEventHook {
  private queue: EventMessage[] = [];
  private draining: Promise<void> | null = null;

  constructor(
    private readonly events: EventBus,
    private readonly reader: EntityReader,
    private readonly service: ActivityService,
    private readonly users: UserDirectory,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Listen to the entity events that make activities. */
  install(events: EventBus): void {
    const hear = (message: EventMessage) => this.enqueue(message);
    for (const type of WITH_STATUS) {
      events.subscribe(`entity.${type}.status_changed`, hear);
      events.subscribe(`entity.${type}.attrib_changed`, hear);
    }
    events.subscribe('entity.task.assignees_changed', hear);
    events.subscribe('entity.version.created', hear);
  }

  /** Resolves once every event handed over so far is heard and handled. */
  async settled(): Promise<void> {
    await this.events.delivered();
    while (this.draining) await this.draining;
  }

  private enqueue(message: EventMessage): void {
    if (!message.project) return;
    this.queue.push(message);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0);
      for (const message of batch) {
        try {
          await this.handle(message);
        } catch (error) {
          this.log.warn(
            { err: error, topic: message.topic, event: message.id },
            'no activity made for an event',
          );
        }
      }
    }
  }

  private async handle(message: EventMessage): Promise<void> {
    const [, type, action] = message.topic.split('.') as [string, ProjectEntityType, string];
    const project = message.project!;
    const id = message.summary.entityId as string | undefined;
    if (!id) return;
    if (action === 'created') {
      if (type === 'version') await this.published(message, project, id);
      return;
    }
    if (action === 'status_changed') await this.statusChanged(message, project, type, id);
    if (action === 'assignees_changed') await this.assigneesChanged(message, project, id);
    if (action === 'attrib_changed') await this.attribChanged(message, project, type, id);
  }

  /** What a change changed from: the entity event's stored payload keeps the old value. */
  private async oldValue(message: EventMessage): Promise<unknown> {
    return (await this.events.get(message.id))?.payload.oldValue ?? null;
  }

  private async statusChanged(message: EventMessage, project: string, type: ProjectEntityType, id: string) {
    const newValue = message.summary.value as string | undefined;
    if (typeof newValue !== 'string') return;
    const old = await this.oldValue(message);
    const oldValue = typeof old === 'string' && old !== newValue ? old : null;
    const entity = await this.reader.find(project, type, id);
    if (!entity) return;
    const link = mentionLink(entity.name ?? id, type, id);
    await this.make(message, project, {
      id: idFor(message.id, 'status'),
      entityType: type,
      entityId: id,
      activityType: 'status.change',
      body: `${link} status changed from ${oldValue ?? 'unknown'} to ${newValue}`,
      data: { oldValue, newValue, batch: batchOf(message) },
    });
  }

  /** One attrib.change activity per attribute changed, as AYON 1.15 writes them: activityData {key, oldValue, newValue}. */
  private async attribChanged(message: EventMessage, project: string, type: ProjectEntityType, id: string) {
    const payload = (await this.events.get(message.id))?.payload;
    const before = (payload?.oldValue ?? {}) as Record<string, unknown>;
    const after = payload?.newValue as Record<string, unknown> | undefined;
    if (!after || typeof after !== 'object') return;
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
      .filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null))
      .sort();
    if (keys.length === 0) return;
    const entity = await this.reader.find(project, type, id);
    if (!entity) return;
    const link = mentionLink(entity.label || entity.name || id, type, id);
    const text = (value: unknown) =>
      value === undefined || value === null ? 'nothing' : JSON.stringify(value);
    for (const key of keys) {
      const [oldValue, newValue] = [before[key] ?? null, after[key] ?? null];
      await this.make(message, project, {
        id: idFor(message.id, 'attrib', key),
        entityType: type,
        entityId: id,
        activityType: 'attrib.change',
        body: `${link} ${key} changed from ${text(oldValue)} to ${text(newValue)}`,
        data: { key, oldValue, newValue, batch: batchOf(message) },
      });
    }
  }

  private async assigneesChanged(message: EventMessage, project: string, id: string) {
    const now = message.summary.value;
    if (!Array.isArray(now)) return;
    const before = await this.oldValue(message);
    if (!Array.isArray(before)) return;
    const added = now.filter((name) => !before.includes(name));
    const removed = before.filter((name) => !now.includes(name));
    if (added.length + removed.length === 0) return;
    const task = await this.reader.find(project, 'task', id);
    if (!task) return;
    const taskLink = mentionLink(task.label || task.name, 'task', id);
    for (const [kind, names] of [
      ['assignee.add', added],
      ['assignee.remove', removed],
    ] as const) {
      for (const name of names) {
        const user = await this.users.get(name);
        const userLink = mentionLink(String(user?.attrib.fullName || name), 'user', name);
        await this.make(message, project, {
          id: idFor(message.id, kind, name),
          entityType: 'task',
          entityId: id,
          activityType: kind,
          body:
            kind === 'assignee.add'
              ? `Added ${userLink} to ${taskLink}`
              : `Removed ${userLink} from ${taskLink}`,
          data: { assignee: name, batch: batchOf(message) },
        });
      }
    }
  }

  private async published(message: EventMessage, project: string, id: string) {
    const version = await this.reader.find(project, 'version', id);
    if (!version) return;
    const product = await this.reader.find(project, 'product', version.productId);
    const folder = product ? await this.reader.find(project, 'folder', product.folderId) : null;
    const task = version.taskId ? await this.reader.find(project, 'task', version.taskId) : null;
    await this.make(message, project, {
      id: idFor(message.id, 'publish'),
      entityType: 'version',
      entityId: id,
      activityType: 'version.publish',
      body: `Published ${mentionLink(version.name, 'version', id)}`,
      data: {
        context: {
          folderId: folder?.id ?? null,
          folderName: folder?.name ?? null,
          folderLabel: folder?.label ?? null,
          folderPath: folder?.path ?? null,
          productId: product?.id ?? null,
          productName: product?.name ?? null,
          productType: product?.productType ?? null,
          taskId: task?.id ?? null,
          taskLabel: task?.label ?? null,
          taskName: task?.name ?? null,
          taskType: task?.taskType ?? null,
        },
      },
    });
  }

  /**
   * Write a server-made activity, authored by whoever made the change. Its events have no sender, as AYON's: hooks
   * run outside the request's context, and the client that changed the entity still wants to hear of the activity.
   */
  private async make(message: EventMessage, project: string, activity: NewActivity): Promise<void> {
    const prepared = await this.service.prepareActivity(project, activity, {
      author: message.user,
      onConflict: 'skip',
      authorWatches: false,
    });
    await this.service.write(prepared);
  }
}
