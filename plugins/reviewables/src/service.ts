import type { Readable } from 'node:stream';
import {
  BadRequest,
  Forbidden,
  NotFound,
  ServiceUnavailable,
  ValidationFailed,
  isManagerOrAbove,
  type Database,
  type EventBus,
  type Problem,
  type RequestUser,
} from '@pipewright/sdk';
import type { MediaInfo, ProjectFiles } from '@pipewright/plugin-files/api';
import { PayloadTooLarge, UnsupportedMediaType } from './errors.js';
import { positionOf, type ReviewableActivity, type ReviewableListing } from './listing.js';
import type { Entity, ReviewAccess } from './permissions.js';
import { isReviewableType } from './media-types.js';
import type { Reviewable } from './schemas.js';
import type { ActivityFeed } from '@pipewright/plugin-activities/api';

/** What an upload brings besides its bytes. */
export interface UploadInput {
  filename: string;
  contentType: string;
  label: string | null;
  /** Content-Length when the client declared one. */
  declaredSize: number | null;
}

/** The outcome of an upload: the reviewable, and the version it was added to (as it was before). */
export interface Uploaded {
  reviewable: Reviewable;
  version: Entity;
}

/**
 * Uploading, ordering and labelling reviewables. A reviewable is an activity of type "reviewable" on a version
 * with the uploaded file attached (AYON's model): its label and position live in the activity's data
 * (reviewableLabel, reviewableOrder), so the activity feed and the listing never disagree.
 */
export class ReviewableService {
  constructor(
    private readonly db: Database,
    private readonly access: ReviewAccess,
    private readonly listing: ReviewableListing,
    private readonly activities: ActivityFeed,
    private readonly files: ProjectFiles,
    private readonly events: EventBus,
  ) {}

  /** Everything checked before a byte of the upload is read: project, version, publish rights, type, size. */
  async checkUpload(caller: RequestUser, projectName: string, versionId: string, input: UploadInput) {
    const project = await this.access.project(caller, projectName);
    const version = await this.access.readable(caller, project, 'version', versionId);
    await this.access.requirePublish(caller, project, version);
    if (!isReviewableType(input.contentType)) throw new UnsupportedMediaType(input.contentType);
    if (input.declaredSize !== null && input.declaredSize > this.files.uploadLimit)
      throw new PayloadTooLarge(this.files.uploadLimit);
    return { project, version };
  }

  /**
   * Store the file, describe it with ffprobe, then create the reviewable activity (the uploader watching the
   * version) in one transaction. Whatever fails after the file is stored removes it again.
   */
  async upload(
    caller: RequestUser,
    project: string,
    version: Entity,
    content: Readable,
    input: UploadInput,
  ): Promise<Uploaded> {
    const file = await this.files.store(project, content, {
      name: input.filename,
      contentType: input.contentType,
      author: caller.name,
    });
    let written: { id: string };
    try {
      await this.probe(project, file.id, input.filename);
      const existing = await this.activities.list(project, 'reviewable', [version.id]);
      const prepared = await this.activities.prepare(project, 'version', version.id, {
        type: 'reviewable',
        body: `Uploaded a reviewable '${input.label || input.filename}'`,
        author: caller.name,
        files: [file.id],
        // After the last one: a new upload does not jump ahead of reviewables someone put in order.
        data: {
          reviewableLabel: input.label,
          reviewableOrder: Math.max(-1, ...existing.map(positionOf)) + 1,
        },
        // A farm uploading for hundreds of versions is not following them (as services do not, commenting).
        authorWatches: !caller.isService,
      });
      // The activity, its events and reviewable.created commit together.
      written = await this.db.transaction().execute(async () => {
        const activity = await this.activities.write(prepared);
        await this.events.emit({
          topic: 'reviewable.created',
          project,
          user: caller.name,
          description: `Reviewable '${input.filename}' uploaded`,
          summary: {
            fileId: file.id,
            versionId: version.id,
            productId: version.productId,
            activityId: activity.id,
            size: file.size,
            filename: input.filename,
            label: input.label,
            mimetype: input.contentType,
          },
        });
        return activity;
      });
    } catch (error) {
      await this.files.remove(project, file.id).catch(() => undefined);
      throw error;
    }
    const activity = (await this.listing.activitiesOf(project, version.id)).find((a) => a.id === written.id);
    const [reviewable] = activity
      ? ((await this.listing.reviewables(project, [activity])).get(version.id) ?? [])
      : [];
    if (!reviewable) throw new NotFound(`Reviewable ${written.id} was removed while it was being uploaded`);
    return { reviewable, version };
  }

  /**
   * ffprobe's description of the stored file. A file ffprobe cannot read as a picture is refused, as AYON does;
   * without ffprobe on the server the upload is kept with its availability unknown.
   */
  private async probe(project: string, fileId: string, filename: string): Promise<MediaInfo | null> {
    let info: MediaInfo | null;
    try {
      info = await this.files.mediaInfo(project, fileId);
    } catch (error) {
      if (error instanceof ServiceUnavailable) return null;
      throw error;
    }
    if (!info)
      throw new BadRequest(`${filename} could not be read as a video or an image`, 'unreadable-media');
    return info;
  }

  /**
   * The version, when the caller may change its reviewables: 404 when they cannot read it, 403 when they may not
   * publish to it. Whose reviewables they are is checked by the caller of this.
   */
  private async editable(caller: RequestUser, projectName: string, versionId: string) {
    const project = await this.access.project(caller, projectName);
    const version = await this.access.readable(caller, project, 'version', versionId);
    await this.access.requirePublish(caller, project, version);
    return { project, version, reviewables: await this.listing.activitiesOf(project, version.id) };
  }

  /**
   * Put a version's reviewables in this order. The list names each of them once; managers reorder any version,
   * others only versions whose reviewables they all uploaded.
   */
  async sort(
    caller: RequestUser,
    projectName: string,
    versionId: string,
    order: string[] | null | undefined,
  ) {
    const { project, reviewables } = await this.editable(caller, projectName, versionId);
    if (!isManagerOrAbove(caller) && reviewables.some((activity) => activity.data.author !== caller.name))
      throw new Forbidden('Only managers reorder reviewables uploaded by others');
    if (order === null || order === undefined) return;
    checkOrder(order, reviewables);
    await this.db.transaction().execute(async () => {
      for (const [position, id] of order.entries())
        await this.activities.mergeData(project, id, { reviewableOrder: position });
    });
  }

  /** Rename a reviewable: its uploader or a manager. A null label leaves it as it is (as AYON). */
  async relabel(
    caller: RequestUser,
    projectName: string,
    versionId: string,
    activityId: string,
    label: string | null | undefined,
  ) {
    const { project, version, reviewables } = await this.editable(caller, projectName, versionId);
    const reviewable = reviewables.find((activity) => activity.id === activityId);
    if (!reviewable) throw new NotFound(`Reviewable ${activityId} not found on version ${version.id}`);
    if (!isManagerOrAbove(caller) && reviewable.data.author !== caller.name)
      throw new Forbidden('Only the uploader of a reviewable or a manager renames it');
    if (label === null || label === undefined) return;
    if (!label) throw new BadRequest('Label cannot be empty');
    if ([...label].length > 255) throw new BadRequest('Label must be between 1 and 255 characters');
    await this.db
      .transaction()
      .execute(() =>
        this.activities.mergeData(project, activityId, { reviewableLabel: label }, { touch: true }),
      );
  }
}

/** 422 unless the order names every reviewable of the version exactly once, and nothing else. */
function checkOrder(order: string[], reviewables: ReviewableActivity[]): void {
  const known = new Set(reviewables.map((activity) => activity.id));
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const [index, id] of order.entries()) {
    if (!known.has(id))
      problems.push({
        loc: ['body', 'sort', index],
        msg: `${id} is not a reviewable of this version`,
        type: 'value_error.unknown',
      });
    else if (seen.has(id))
      problems.push({
        loc: ['body', 'sort', index],
        msg: `${id} is listed twice`,
        type: 'value_error.duplicate',
      });
    seen.add(id);
  }
  const missing = [...known].filter((id) => !seen.has(id));
  if (missing.length)
    problems.push({
      loc: ['body', 'sort'],
      msg: `Every reviewable of the version must be listed; missing: ${missing.join(', ')}`,
      type: 'value_error.missing',
    });
  if (problems.length) throw new ValidationFailed(problems, 'Invalid reviewable order');
}
