import { firstNumberOf, NotFound, rangeOf, type RequestUser } from '@pipewright/sdk';
import type { ActivityFeed } from '@pipewright/plugin-activities/api';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { MediaInfo, ProjectFiles } from '@pipewright/plugin-files/api';
import type { EntityListDirectory } from '@pipewright/plugin-lists/api';
import type { LinkRow } from './store.js';

export interface HoldingDeps {
  entities: EntityDirectory;
  lists: EntityListDirectory;
  activities: ActivityFeed;
  files: ProjectFiles;
}

export type Entity = Record<string, any>;

const plain = (id: string) => id.replaceAll('-', '');

/**
 * Who the server acts as for a guest: a name no user can hold (user names have no spaces or brackets), so it never
 * passes for anyone, with the rights to read what the link holds and to write what the link allows. The guest's
 * own requests never reach it without the link's checks first.
 */
export function guestActor(guestName: string): RequestUser {
  return {
    name: `${guestName} (guest)`,
    isAdmin: false,
    isManager: true,
    isService: false,
    isGuest: false,
    accessGroups: {},
    sessionId: null,
    isApiKey: false,
  };
}

/** What a version is called on a guest's page: "sh010 / compMain v003". */
export async function titleOf(deps: HoldingDeps, project: string, version: Entity) {
  const product = await deps.entities.get(project, 'product', version.productId);
  const folder = product ? await deps.entities.get(project, 'folder', product.folderId) : null;
  const path = String(folder?.path ?? folder?.name ?? '').replace(/^\//, '');
  const name = version.name ?? `v${String(version.version ?? 0).padStart(3, '0')}`;
  return {
    title: [path, `${product?.name ?? 'product'} ${name}`].filter(Boolean).join(' / '),
    productName: String(product?.name ?? ''),
    folderPath: path,
    folderAttrib: (folder?.attrib ?? {}) as Record<string, unknown>,
    name: String(name),
  };
}

/** The versions a link holds now: its version, or the versions of its list in list order (a list's other items are not). */
export async function versionsOf(deps: HoldingDeps, link: LinkRow): Promise<Entity[]> {
  const project = link.project_name;
  const targetId = plain(link.target_id);
  if (link.target === 'version') {
    const version = await deps.entities.get(project, 'version', targetId);
    return version ? [version] : [];
  }
  let list;
  try {
    list = await deps.lists.get(guestActor('server'), project, targetId);
  } catch (error) {
    if (error instanceof NotFound) return [];
    throw error;
  }
  if (list.entityType !== 'version') return [];
  const found: Entity[] = [];
  for (const item of list.items) {
    const version = await deps.entities.get(project, 'version', item.entityId);
    if (version && !found.some((v) => v.id === version.id)) found.push(version);
  }
  return found;
}

/** One version the link holds, or 404 as if it did not exist. */
export async function heldVersion(deps: HoldingDeps, link: LinkRow, versionId: string): Promise<Entity> {
  const version = (await versionsOf(deps, link)).find((v) => v.id === versionId);
  if (!version) throw new NotFound(`Version ${versionId} not found`);
  return version;
}

export interface HeldReviewable {
  versionId: string;
  activityId: string;
  fileId: string;
  label: string | null;
  filename: string;
  mimetype: string;
  mediaInfo: MediaInfo | null;
}

/** The reviewables (one per file of a reviewable activity) of these versions, in their order. */
export async function reviewablesOf(
  deps: HoldingDeps,
  project: string,
  versions: Entity[],
): Promise<HeldReviewable[]> {
  if (!versions.length) return [];
  const activities = (
    await deps.activities.list(
      project,
      'reviewable',
      versions.map((v) => v.id),
    )
  )
    .map((activity, index) => ({ activity, index }))
    .sort(
      (a, b) =>
        Number(a.activity.data.reviewableOrder ?? 0) - Number(b.activity.data.reviewableOrder ?? 0) ||
        a.index - b.index,
    )
    .map(({ activity }) => activity);
  const files = await deps.files.listByActivity(
    project,
    activities.map((a) => a.id),
  );
  const held: HeldReviewable[] = [];
  for (const activity of activities) {
    for (const file of files.filter((f) => f.activityId && plain(f.activityId) === plain(activity.id))) {
      const label = activity.data.reviewableLabel;
      held.push({
        versionId: plain(activity.entityId),
        activityId: plain(activity.id),
        fileId: file.id,
        label: typeof label === 'string' ? label : null,
        filename: file.name,
        mimetype: file.contentType,
        mediaInfo: await deps.files.mediaInfo(project, file.id).catch(() => null),
      });
    }
  }
  return held;
}

/** The frame numbers a reviewable's media shows, as the studio's player and the annotations number them. */
export function framesOf(version: Entity, folderAttrib: Record<string, unknown>, media: MediaInfo | null) {
  const range = rangeOf(version.attrib ?? {}, folderAttrib);
  const fps = media?.frameRate && media.frameRate > 0 ? media.frameRate : 24;
  const frameCount = Math.max(1, media?.frameCount ?? Math.round((media?.duration ?? 0) * fps));
  return { range, fps, frameCount, firstFrame: firstNumberOf(range, frameCount) };
}
