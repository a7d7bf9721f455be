import {
  Forbidden,
  ValidationFailed,
  type Database,
  type Download,
  type EventBus,
  type RequestUser,
} from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectFiles } from '@pipewright/plugin-files/api';
import { schemaProblems, writeImported } from './import-write.js';
import type { Drawn, FileRead } from './interchange.js';
import { reviewMedia, type ReviewMedia } from './media.js';
import { toOpenRv } from './openrv.js';
import { fromOpenRv } from './openrv-read.js';
import { toOtio } from './otio.js';
import { fromOtio } from './otio-read.js';
import type { AnnotationService, ReviewableRef } from './service.js';
import type { AnnotationStore } from './store.js';

const plain = (id: string) => id.replaceAll('-', '');
const fileSafe = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'review';
/** The formats a file is imported from, as the event and a refusal name them. */
const OTIO = { name: 'OTIO', file: 'The OTIO document' };
const OPENRV = { name: 'OpenRV', file: 'The OpenRV fragment' };

/**
 * A reviewable's annotations in the formats review tools trade, out and back in: OTIO with OpenRV's annotation
 * schemas, and an OpenRV paint fragment (the RVPaint node of a session file).
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

  /** Draw what an OTIO document holds (see importFile). */
  async importOtio(caller: RequestUser, where: ReviewableRef, document: unknown) {
    return this.importFile(caller, where, OTIO, (media) => fromOtio(document, media));
  }

  /** Draw the strokes and texts of an OpenRV paint fragment or session file (see importFile). */
  async importOpenRv(caller: RequestUser, where: ReviewableRef, fragment: string) {
    return this.importFile(caller, where, OPENRV, (media, reviewableId) =>
      fromOpenRv(fragment, media, reviewableId),
    );
  }

  /**
   * Draw what a file holds, all of it or nothing: every object is checked before any is written, then all are
   * written in one transaction with one annotation.imported event. An object whose id is already on this reviewable
   * is replaced (so importing a file again changes nothing), which takes the rights to change it.
   */
  private async importFile(
    caller: RequestUser,
    where: ReviewableRef,
    format: { name: string; file: string },
    readFile: (media: ReviewMedia, reviewableId: string) => FileRead,
  ) {
    if (caller.isGuest) throw new Forbidden('Guests cannot draw on review media');
    const place = await this.annotations.reviewable(caller, where);
    const media = await reviewMedia(this.deps, place.project, place.version, place.reviewable);
    const read = readFile(media, place.reviewableId);
    const problems = [...read.problems, ...read.annotations.flatMap(schemaProblems)];
    if (problems.length)
      throw new ValidationFailed(problems, `${format.file} has annotations that cannot be read`);
    const counts = { created: 0, updated: 0 };
    const kept = new Set<string>();
    await this.db.transaction().execute(async () => {
      const taken = new Set<string>();
      for (const object of read.annotations) {
        const outcome = await writeImported(this.store, caller, place, object, taken);
        if (typeof outcome === 'object') kept.add(outcome.kept);
        else counts[outcome]++;
      }
      await this.events.emit({
        topic: 'annotation.imported',
        project: place.project,
        description: `${counts.created + counts.updated} annotations imported from ${format.name}`,
        summary: {
          versionId: place.versionId,
          reviewableId: place.reviewableId,
          ...counts,
          unchanged: kept.size,
        },
        store: false,
      });
    });
    return { ...counts, unchanged: kept.size, skipped: read.skipped };
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
