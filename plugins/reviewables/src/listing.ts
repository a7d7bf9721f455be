import type { ProjectEntityType, RequestUser } from '@pipewright/sdk';
import type { EntityDirectory, EntityQuery } from '@pipewright/plugin-entities/api';
import type { FileRecord, MediaInfo, ProjectFiles } from '@pipewright/plugin-files/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import { availabilityOf } from './availability.js';
import type { Entity } from './permissions.js';
import type { Reviewable, VersionReviewables } from './schemas.js';
import type { ActivityFeed } from '@pipewright/plugin-activities/api';

export type ReviewableActivity = Awaited<ReturnType<ActivityFeed['list']>>[number];

/** Entities are read in pages of this many (a folder with more versions is read in several pages). */
const PAGE = 1000;

/** Where a reviewable sits among its version's: its stored position (AYON's reviewableOrder), 0 when never set. */
export const positionOf = (activity: ReviewableActivity) =>
  typeof activity.data.reviewableOrder === 'number' ? activity.data.reviewableOrder : 0;

/** Which versions a listing shows. */
export interface VersionFilter {
  /** Only the latest version of each product. */
  latest?: boolean;
  /** Only the latest version of each product whose status is done. */
  latestDone?: boolean;
}

/**
 * Versions with their reviewables, in AYON's shape and order: versions by number (a HERO version, stored
 * negative, first), then by product name when several products are listed; each version's reviewables by their
 * position, then by upload. Every version the caller may read is listed, with or without reviewables.
 *
 * Processing is always null: this server does not transcode. A reviewable that a browser cannot play says so in
 * its availability, and a transcoding service would add the converted file (createdFrom) and its processing state.
 */
export class ReviewableListing {
  constructor(
    private readonly projects: ProjectDirectory,
    private readonly entities: EntityDirectory,
    private readonly activities: ActivityFeed,
    private readonly files: ProjectFiles,
    private readonly users: UserDirectory,
  ) {}

  /** Every entity of a type that a query matches, as the caller may read them, page after page. */
  private async all(project: string, type: ProjectEntityType, query: Omit<EntityQuery, 'limit'>) {
    const found: Entity[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await this.entities.query(project, type, {
        ...query,
        limit: PAGE,
        after,
        folderFlags: false,
      });
      found.push(...page.items.map((item) => item.entity));
      if (!page.hasMore || page.items.length === 0) return found;
      after = page.items[page.items.length - 1].cursor;
    }
  }

  /** The reviewables of one version the caller may read (with its product). */
  async ofVersion(project: string, version: Entity): Promise<VersionReviewables> {
    const product = await this.entities.get(project, 'product', version.productId);
    const [listed] = await this.present(project, [version], product ? [product] : []);
    return listed;
  }

  /** The versions of a product, as the caller may read them. */
  async ofProduct(caller: RequestUser, project: string, product: Entity, filter: VersionFilter) {
    const versions = await this.all(project, 'version', {
      parentIds: [product.id],
      latestOnly: filter.latest,
      caller,
    });
    return this.present(project, await this.filter(project, versions, filter), [product]);
  }

  /** The versions made for a task. */
  async ofTask(caller: RequestUser, project: string, task: Entity, filter: VersionFilter) {
    const versions = await this.all(project, 'version', {
      taskIds: [task.id],
      latestOnly: filter.latest,
      caller,
    });
    const productIds = [...new Set(versions.map((version) => version.productId as string))];
    const products = productIds.length ? await this.all(project, 'product', { ids: productIds }) : [];
    return this.present(project, await this.filter(project, versions, filter), products);
  }

  /** The versions of the products directly in a folder (as AYON: not those of its subfolders). */
  async ofFolder(caller: RequestUser, project: string, folder: Entity, filter: VersionFilter) {
    const products = await this.all(project, 'product', { parentIds: [folder.id], caller });
    if (products.length === 0) return [];
    const versions = await this.all(project, 'version', {
      parentIds: products.map((product) => product.id),
      latestOnly: filter.latest,
      caller,
    });
    return this.present(project, await this.filter(project, versions, filter), products);
  }

  /** The reviewable activities of a version, in their order. */
  async activitiesOf(project: string, versionId: string): Promise<ReviewableActivity[]> {
    return sortActivities(await this.activities.list(project, 'reviewable', [versionId]));
  }

  /** Keep, per product, only the highest version whose status is done (latest_done). */
  private async filter(project: string, versions: Entity[], filter: VersionFilter): Promise<Entity[]> {
    if (!filter.latestDone) return versions;
    const record = await this.projects.find(project);
    const done = new Set((record?.statuses ?? []).filter((s) => s.state === 'done').map((s) => s.name));
    const best = new Map<string, Entity>();
    for (const version of versions) {
      if (!done.has(version.status)) continue;
      const current = best.get(version.productId);
      if (!current || version.version > current.version) best.set(version.productId, version);
    }
    return versions.filter((version) => best.get(version.productId) === version);
  }

  /** Versions in AYON's shape, each with its reviewables. */
  private async present(
    project: string,
    versions: Entity[],
    products: Entity[],
  ): Promise<VersionReviewables[]> {
    const productById = new Map(products.map((product) => [product.id as string, product]));
    const activities = sortActivities(
      await this.activities.list(
        project,
        'reviewable',
        versions.map((version) => version.id),
      ),
    );
    const reviewables = await this.reviewables(project, activities);
    const ordered = [...versions].sort(
      (a, b) =>
        a.version - b.version ||
        String(productById.get(a.productId)?.name ?? '').localeCompare(
          String(productById.get(b.productId)?.name ?? ''),
        ) ||
        String(a.id).localeCompare(String(b.id)),
    );
    return ordered.map((version) => {
      const product = productById.get(version.productId);
      return {
        id: version.id,
        name: version.name,
        version: String(version.version),
        status: version.status,
        productId: version.productId,
        productName: product?.name ?? '',
        productType: product?.productType ?? '',
        attrib: version.attrib ?? {},
        reviewables: reviewables.get(version.id) ?? [],
      };
    });
  }

  /** The reviewables of these activities (one per attached file), by version id, in the activities' order. */
  async reviewables(project: string, activities: ReviewableActivity[]): Promise<Map<string, Reviewable[]>> {
    const files = await this.files.listByActivity(
      project,
      activities.map((activity) => activity.id),
    );
    const filesOf = new Map<string, FileRecord[]>();
    for (const file of files) {
      if (!filesOf.has(file.activityId!)) filesOf.set(file.activityId!, []);
      filesOf.get(file.activityId!)!.push(file);
    }
    const media = new Map<string, MediaInfo | null>();
    for (const file of files) media.set(file.id, await this.mediaInfo(project, file.id));
    const fullNames = await this.fullNames(activities.map((activity) => activity.data.author));

    const byVersion = new Map<string, Reviewable[]>();
    for (const activity of activities) {
      for (const file of filesOf.get(activity.id) ?? []) {
        const mediaInfo = media.get(file.id) ?? null;
        const author = typeof activity.data.author === 'string' ? activity.data.author : (file.author ?? '');
        const reviewable: Reviewable = {
          fileId: file.id,
          activityId: activity.id,
          filename: file.name,
          label: typeof activity.data.reviewableLabel === 'string' ? activity.data.reviewableLabel : null,
          mimetype: file.contentType,
          availability: availabilityOf(mediaInfo, file.contentType),
          mediaInfo: mediaInfo as Record<string, unknown> | null,
          createdFrom: null,
          processing: null,
          createdAt: activity.createdAt.toISOString(),
          updatedAt: activity.updatedAt.toISOString(),
          author: { name: author, fullName: fullNames.get(author) ?? null },
        };
        if (!byVersion.has(activity.entityId)) byVersion.set(activity.entityId, []);
        byVersion.get(activity.entityId)!.push(reviewable);
      }
    }
    return byVersion;
  }

  /**
   * ffprobe's description, taken when the file was uploaded. A file uploaded while ffprobe was missing is probed
   * now if it can be, else its media info stays unknown.
   */
  private async mediaInfo(project: string, fileId: string): Promise<MediaInfo | null> {
    try {
      return await this.files.mediaInfo(project, fileId);
    } catch {
      return null;
    }
  }

  /** Full names of users, by name (users who are gone have none). */
  private async fullNames(names: unknown[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const name of new Set(names.filter((n): n is string => typeof n === 'string'))) {
      const fullName = (await this.users.get(name))?.attrib.fullName;
      if (typeof fullName === 'string' && fullName) found.set(name, fullName);
    }
    return found;
  }
}

/** Reviewables by position, then in upload order (the order activities are listed in). */
export function sortActivities(activities: ReviewableActivity[]): ReviewableActivity[] {
  return activities
    .map((activity, index) => ({ activity, index }))
    .sort((a, b) => positionOf(a.activity) - positionOf(b.activity) || a.index - b.index)
    .map(({ activity }) => activity);
}
