import {
  Conflict,
  Forbidden,
  isManagerOrAbove,
  newId,
  NotFound,
  type Database,
  type EventBus,
  type RequestUser,
} from '@pipewright/sdk';
import type { ActivityFeed } from '@pipewright/plugin-activities/api';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { AnnotationInput } from './interchange.js';
import type { AnnotationRow, AnnotationStore, FrameFilter } from './store.js';

/** Where an annotation lives: a reviewable (its activity) of a version of a project, as a route names them. */
export interface ReviewableRef {
  project_name: string;
  version_id: string;
  activity_id: string;
}

const plain = (id: string) => id.replaceAll('-', '');

export const presentAnnotation = (row: AnnotationRow) => ({
  id: plain(row.id),
  versionId: plain(row.version_id),
  reviewableId: plain(row.reviewable_id),
  frame: row.frame,
  color: row.color,
  shape: row.shape,
  author: row.author,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/**
 * Annotations: read by whoever may read the version, drawn by anyone signed in who may (guests do not draw), changed
 * and removed by their author or a manager. Each object is a row of its own, so two people drawing on one frame
 * at once add to it side by side; every change is broadcast (annotation.created, .updated, .deleted) for the screens
 * that show the frame.
 */
export class AnnotationService {
  constructor(
    private readonly db: Database,
    private readonly store: AnnotationStore,
    private readonly deps: {
      projects: ProjectDirectory;
      entities: EntityDirectory;
      activities: ActivityFeed;
    },
    private readonly events: EventBus,
  ) {}

  async list(caller: RequestUser, where: ReviewableRef, filter: FrameFilter) {
    const { project, reviewableId } = await this.reviewable(caller, where);
    return (await this.store.list(project, reviewableId, filter)).map(presentAnnotation);
  }

  async create(caller: RequestUser, where: ReviewableRef, input: AnnotationInput): Promise<{ id: string }> {
    if (caller.isGuest) throw new Forbidden('Guests cannot draw on review media');
    const { project, versionId, reviewableId } = await this.reviewable(caller, where);
    const id = input.id ?? newId();
    await this.db.transaction().execute(async () => {
      const added = await this.store.insert(project, {
        id,
        version_id: versionId,
        reviewable_id: reviewableId,
        frame: input.frame,
        kind: input.shape.kind,
        color: input.color,
        shape: input.shape,
        author: caller.name,
      });
      if (!added) throw new Conflict(`Annotation ${plain(id)} exists already`);
      await this.changed('created', project, { versionId, reviewableId, id, frame: input.frame });
    });
    return { id: plain(id) };
  }

  async update(
    caller: RequestUser,
    where: ReviewableRef,
    id: string,
    patch: Partial<Omit<AnnotationInput, 'id'>>,
  ): Promise<void> {
    const { project, row } = await this.own(caller, where, id);
    const frame = patch.frame ?? row.frame;
    await this.db.transaction().execute(async () => {
      await this.store.update(project, row.id, {
        frame,
        color: patch.color ?? row.color,
        shape: patch.shape ?? row.shape,
      });
      await this.changed('updated', project, {
        versionId: row.version_id,
        reviewableId: row.reviewable_id,
        id: row.id,
        frame,
      });
    });
  }

  async remove(caller: RequestUser, where: ReviewableRef, id: string): Promise<void> {
    const { project, row } = await this.own(caller, where, id);
    await this.db.transaction().execute(async () => {
      await this.store.remove(project, row.id);
      await this.changed('deleted', project, {
        versionId: row.version_id,
        reviewableId: row.reviewable_id,
        id: row.id,
        frame: row.frame,
      });
    });
  }

  /**
   * An object while it is being drawn (a stroke as it grows), shown to the others on the frame at once; nothing is
   * kept, and the object arrives for good with its POST.
   */
  async drawing(caller: RequestUser, where: ReviewableRef, input: Required<AnnotationInput>): Promise<void> {
    if (caller.isGuest) throw new Forbidden('Guests cannot draw on review media');
    const { project, versionId, reviewableId } = await this.reviewable(caller, where);
    await this.events.emit({
      topic: 'annotation.drawing',
      project,
      description: `Drawing on frame ${input.frame}`,
      summary: {
        versionId,
        reviewableId,
        annotationId: plain(input.id),
        frame: input.frame,
        color: input.color,
        shape: input.shape,
        author: caller.name,
      },
      store: false,
    });
  }

  /** The reviewable a route names: 404 unless the caller may read its version and it is one of the version's. */
  async reviewable(caller: RequestUser, where: ReviewableRef) {
    const project = (await this.deps.projects.require(caller, where.project_name)).name;
    const version = await this.deps.entities.get(project, 'version', where.version_id, caller);
    if (!version) throw new NotFound(`Version ${where.version_id} not found in project ${project}`);
    const reviewables = await this.deps.activities.list(project, 'reviewable', [version.id]);
    const reviewable = reviewables.find((activity) => plain(activity.id) === plain(where.activity_id));
    if (!reviewable) throw new NotFound(`Reviewable ${where.activity_id} not found on version ${version.id}`);
    return { project, version, reviewable, versionId: plain(version.id), reviewableId: plain(reviewable.id) };
  }

  /** An annotation of the reviewable that the caller may change: theirs, or any for a manager. */
  private async own(caller: RequestUser, where: ReviewableRef, id: string) {
    const { project, reviewableId } = await this.reviewable(caller, where);
    const row = await this.store.get(project, id);
    if (!row || plain(row.reviewable_id) !== reviewableId)
      throw new NotFound(`Annotation ${id} not found on reviewable ${reviewableId}`);
    if (row.author !== caller.name && !isManagerOrAbove(caller))
      throw new Forbidden('Only its author or a manager changes an annotation');
    return { project, row };
  }

  private async changed(
    action: 'created' | 'updated' | 'deleted',
    project: string,
    what: { versionId: string; reviewableId: string; id: string; frame: number },
  ): Promise<void> {
    // Broadcast for the screens showing the frame; the objects themselves are the record, not the event log.
    await this.events.emit({
      topic: `annotation.${action}`,
      project,
      description: `Annotation ${action} on frame ${what.frame}`,
      summary: {
        versionId: plain(what.versionId),
        reviewableId: plain(what.reviewableId),
        annotationId: plain(what.id),
        frame: what.frame,
      },
      store: false,
    });
  }
}
