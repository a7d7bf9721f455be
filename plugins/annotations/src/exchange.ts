import { Value } from '@sinclair/typebox/value';
import {
  Forbidden,
  isManagerOrAbove,
  newId,
  ValidationFailed,
  type Database,
  type Download,
  type EventBus,
  type Problem,
  type RequestUser,
} from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectFiles } from '@pipewright/plugin-files/api';
import type { Drawn } from './interchange.js';
import { reviewMedia } from './media.js';
import { toOpenRv } from './openrv.js';
import { toOtio } from './otio.js';
import { fromOtio } from './otio-read.js';
import { AnnotationCreate } from './schemas.js';
import type { AnnotationService, ReviewableRef } from './service.js';
import type { AnnotationStore } from './store.js';

const plain = (id: string) => id.replaceAll('-', '');
const fileSafe = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'review';

/**
 * A reviewable's annotations in the formats review tools trade: OTIO with OpenRV's annotation schemas (export and
 * import) and an OpenRV paint fragment (export).
 */
export class AnnotationExchange {
  constructor(
    private readonly db: Database,
    private readonly store: AnnotationStore,
    private readonly annotations: AnnotationService,
    private readonly deps: { entities: EntityDirectory; files: ProjectFiles },
    private readonly events: EventBus,
  ) {}

  async otio(caller: RequestUser, where: ReviewableRef): Promise<Download> {
    const { place, media, drawn } = await this.read(caller, where);
    const about = { project: place.project, versionId: place.versionId, reviewableId: place.reviewableId };
    return {
      fileName: `${fileSafe(media.name)}.otio`,
      contentType: 'application/json',
      body: JSON.stringify(toOtio(media, drawn, about)),
    };
  }

  async openRv(caller: RequestUser, where: ReviewableRef): Promise<Download> {
    const { media, drawn } = await this.read(caller, where);
    return {
      fileName: `${fileSafe(media.name)}-paint.rv`,
      contentType: 'text/plain; charset=utf-8',
      body: toOpenRv(media, drawn, caller.name),
    };
  }

  /**
   * Draw what an OTIO document holds, all of it or nothing. An object whose id is already on this reviewable is
   * replaced (so importing a file again changes nothing), which takes the rights to change it.
   */
  async importOtio(caller: RequestUser, where: ReviewableRef, document: unknown) {
    if (caller.isGuest) throw new Forbidden('Guests cannot draw on review media');
    const place = await this.annotations.reviewable(caller, where);
    const media = await reviewMedia(this.deps, place.project, place.version, place.reviewable);
    const read = fromOtio(document, media);
    const problems: Problem[] = [...read.problems];
    read.annotations.forEach((annotation, index) => {
      for (const error of Value.Errors(AnnotationCreate, annotation))
        problems.push({
          loc: ['body', 'annotations', index, ...error.path.split('/').filter(Boolean)],
          msg: `Frame ${annotation.frame}: ${error.message}`,
          type: 'value_error',
        });
    });
    if (problems.length)
      throw new ValidationFailed(problems, 'The OTIO document has annotations that cannot be read');
    let created = 0;
    let updated = 0;
    await this.db.transaction().execute(async () => {
      for (const { id, frame, color, shape } of read.annotations) {
        const existing = id ? await this.store.get(place.project, id) : null;
        if (existing && plain(existing.reviewable_id) === place.reviewableId) {
          if (existing.author !== caller.name && !isManagerOrAbove(caller))
            throw new Forbidden(
              `Annotation ${id} is someone else's; only its author or a manager replaces it`,
            );
          await this.store.update(place.project, existing.id, { frame, color, shape });
          updated++;
          continue;
        }
        await this.store.insert(place.project, {
          id: existing || !id ? newId() : id,
          version_id: place.versionId,
          reviewable_id: place.reviewableId,
          frame,
          kind: shape.kind,
          color,
          shape,
          author: caller.name,
        });
        created++;
      }
      await this.events.emit({
        topic: 'annotation.imported',
        project: place.project,
        description: `${created + updated} annotations imported from OTIO`,
        summary: { versionId: place.versionId, reviewableId: place.reviewableId, created, updated },
        store: false,
      });
    });
    return { created, updated, skipped: read.skipped };
  }

  /** A reviewable's media and annotations, as the annotations service offers them to other addons. */
  async annotationsOf(caller: RequestUser, project_name: string, version_id: string, activity_id: string) {
    const { media, drawn } = await this.read(caller, { project_name, version_id, activity_id });
    return { media, annotations: drawn };
  }

  private async read(caller: RequestUser, where: ReviewableRef) {
    const place = await this.annotations.reviewable(caller, where);
    const media = await reviewMedia(this.deps, place.project, place.version, place.reviewable);
    const rows = await this.store.list(place.project, place.reviewableId, {});
    const drawn: Drawn[] = rows.map((row) => ({
      id: plain(row.id),
      frame: row.frame,
      color: row.color,
      shape: row.shape,
    }));
    return { place, media, drawn };
  }
}
