import {
  Forbidden,
  isoTime,
  newId,
  NotFound,
  TooManyRequests,
  Unauthorized,
  ValidationFailed,
  type Database,
} from '@pipewright/sdk';
import type { ReviewAnnotations } from '@pipewright/plugin-annotations/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import {
  framesOf,
  guestActor,
  heldVersion,
  reviewablesOf,
  titleOf,
  versionsOf,
  type HoldingDeps,
} from './holdings.js';
import { endOf, NoGuestSession, requireOpen } from './links.js';
import type { GuestLinkStore, LinkRow, LogAction, SessionRow } from './store.js';
import { newToken, passwordMatches, tokenHash } from './tokens.js';

export type GuestDeps = HoldingDeps & { projects: ProjectDirectory; annotations: ReviewAnnotations };

/** Wrong passwords a link takes in a window before it refuses every guess until the window has passed. */
export const PASSWORD_LIMIT = { failures: 5, windowMs: 15 * 60_000 };

/** A guest's session as every guest request finds it: the link it opened, still open, and the guest's name. */
export interface Guest {
  session: SessionRow;
  link: LinkRow;
  /** The link's id as 32 hex characters. */
  linkId: string;
  address: string | null;
}

/** 429 with the seconds to wait, which the route sends as Retry-After. */
export class PasswordThrottled extends TooManyRequests {
  constructor(readonly retryAfterSeconds: number) {
    super(
      `Too many wrong passwords for this link; try again in ${retryAfterSeconds} s`,
      'guest-password-throttled',
    );
  }
}

const plain = (id: string) => id.replaceAll('-', '');
/** A name as comments show it: one line, no control characters, at most 64 characters. */
const cleanName = (name: string) =>
  name
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 64);

/**
 * What a guest does with a link: open it (name, password once) for a session, then see what it holds, stream its
 * reviewables, read their annotations and the versions' comments, and comment or approve where the link allows.
 * Every request checks its session and its link again: a revoked or expired link answers 403 at once.
 */
export class GuestService {
  constructor(
    private readonly db: Database,
    private readonly store: GuestLinkStore,
    private readonly deps: GuestDeps,
  ) {}

  /** What a token opens, before opening it: whether it needs a password (and, without one, its label). */
  async peek(token: string) {
    const link = await this.store.linkByToken(tokenHash(token));
    if (!link) throw new NotFound('This guest link does not exist');
    requireOpen(link);
    const needsPassword = link.password_hash !== null;
    return {
      needsPassword,
      label: needsPassword ? null : link.label,
      expiresAt: link.expires_at ? isoTime(link.expires_at) : null,
    };
  }

  /**
   * Open a link under a name: a session token for the guest's later requests. Wrong passwords are counted from the
   * link's log (so every server process counts the same ones), with the link's row locked while a guess is judged.
   */
  async open(token: string, name: string, password: string | null | undefined, address: string | null) {
    const guestName = cleanName(name);
    if (!guestName)
      throw new ValidationFailed(
        [{ loc: ['body', 'name'], msg: 'Give a name: comments carry it', type: 'value_error' }],
        'A guest gives a name',
      );
    const opened = await this.db.transaction().execute(async () => {
      const link = await this.store.linkByToken(tokenHash(token), true);
      if (!link) throw new NotFound('This guest link does not exist');
      requireOpen(link);
      if (link.password_hash) {
        const since = new Date(Date.now() - PASSWORD_LIMIT.windowMs);
        const refused = await this.store.refusals(link.id, since);
        if (refused.count >= PASSWORD_LIMIT.failures) {
          const reopens = (refused.oldest?.getTime() ?? Date.now()) + PASSWORD_LIMIT.windowMs;
          throw new PasswordThrottled(Math.max(1, Math.ceil((reopens - Date.now()) / 1000)));
        }
        if (!password || !(await passwordMatches(link.password_hash, password))) {
          await this.store.log({
            link_id: link.id,
            action: 'password-refused',
            guest_name: guestName,
            address,
            detail: null,
          });
          // The refusal must stay written: answered after the unit commits (see the route's answer below).
          return { refused: password ? 'This password is wrong' : 'This guest link needs a password' };
        }
      }
      const session = newToken();
      await this.store.insertSession({
        id: newId(),
        token_hash: tokenHash(session),
        link_id: link.id,
        guest_name: guestName,
      });
      await this.store.log({
        link_id: link.id,
        action: 'open',
        guest_name: guestName,
        address,
        detail: null,
      });
      return { session, guestName };
    });
    // A refusal answers once its log entry is written, so the next guess counts it.
    if ('refused' in opened) throw new Unauthorized(opened.refused, 'guest-password');
    return opened;
  }

  /** The guest behind a session token: 401 without a valid one, 403 when its link ended. */
  async guest(sessionToken: string | undefined, address: string | null): Promise<Guest> {
    if (!sessionToken) throw new NoGuestSession();
    const found = await this.store.session(tokenHash(sessionToken));
    if (!found) throw new NoGuestSession('This guest session is unknown: open the guest link again');
    requireOpen(found.link);
    return { ...found, linkId: plain(found.link.id), address };
  }

  /** Whether the guest's link still opens (live connections check again before they start). */
  stillOpen(link: LinkRow): boolean {
    return endOf(link) === null;
  }

  async items(guest: Guest) {
    const { link } = guest;
    const project = link.project_name;
    const versions = await versionsOf(this.deps, link);
    const reviewables = await reviewablesOf(this.deps, project, versions);
    const presented = [];
    for (const version of versions) {
      const about = await titleOf(this.deps, project, version);
      const range = framesOf(version, about.folderAttrib, null).range;
      presented.push({
        id: version.id,
        title: about.title,
        name: about.name,
        version: Number(version.version ?? 0),
        status: String(version.status ?? ''),
        productName: about.productName,
        folderPath: about.folderPath,
        ...range,
        reviewables: reviewables
          .filter((r) => r.versionId === version.id)
          .map((r) => {
            const { fps, frameCount, firstFrame } = framesOf(version, about.folderAttrib, r.mediaInfo);
            return {
              activityId: r.activityId,
              fileId: r.fileId,
              label: r.label,
              filename: r.filename,
              mimetype: r.mimetype,
              mediaInfo: r.mediaInfo as Record<string, unknown> | null,
              fps,
              firstFrame,
              frameCount,
            };
          }),
      });
    }
    return {
      label: link.label,
      projectName: project,
      guestName: guest.session.guest_name,
      expiresAt: link.expires_at ? isoTime(link.expires_at) : null,
      canComment: link.can_comment,
      canDownload: link.can_download,
      canApprove: link.can_approve,
      versions: presented,
    };
  }

  /** A file of one of the link's reviewables (404 for any other), and whether it may go as a download. */
  async file(guest: Guest, fileId: string, download: boolean) {
    const project = guest.link.project_name;
    const held = await reviewablesOf(this.deps, project, await versionsOf(this.deps, guest.link));
    if (!held.some((r) => r.fileId === fileId)) throw new NotFound(`File ${fileId} not found`);
    if (download && !guest.link.can_download) throw new Forbidden('This guest link does not allow downloads');
    const file = await this.deps.files.get(project, fileId);
    if (!file) throw new NotFound(`File ${fileId} not found`);
    if (download) await this.record(guest, 'download', file.name);
    return file;
  }

  /** The bytes of a file the guest may have (after file()), or of a range of it. */
  bytes(guest: Guest, fileId: string, range?: { start: number; end: number }) {
    return this.deps.files.open(guest.link.project_name, fileId, range);
  }

  async annotations(guest: Guest, versionId: string, activityId: string) {
    await heldVersion(this.deps, guest.link, versionId);
    const read = await this.deps.annotations.read(
      guestActor(guest.session.guest_name),
      guest.link.project_name,
      versionId,
      activityId,
    );
    return {
      annotations: read.annotations.map(({ id, frame, color, shape }) => ({ id, frame, color, shape })),
    };
  }

  /** A version's comments, oldest first; those written through guest links say so. */
  async comments(guest: Guest, versionId: string) {
    await heldVersion(this.deps, guest.link, versionId);
    const comments = await this.deps.activities.list(guest.link.project_name, 'comment', [versionId]);
    const int = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);
    return {
      comments: comments.map((c) => {
        const guestName = typeof c.data.guestName === 'string' ? c.data.guestName : null;
        return {
          id: plain(c.id),
          author: guestName ?? (typeof c.data.author === 'string' ? c.data.author : 'The studio'),
          guest: guestName !== null,
          body: c.body,
          frame: int(c.data.frame),
          frameEnd: int(c.data.frameEnd),
          reviewableId: typeof c.data.reviewableId === 'string' ? c.data.reviewableId : null,
          createdAt: isoTime(c.createdAt),
        };
      }),
    };
  }

  /**
   * A comment on a version, kept as any comment of its feed so the studio reads it there: its author is
   * "<name> (guest)", a name no user can hold, and its data names the guest and the link.
   */
  async comment(
    guest: Guest,
    versionId: string,
    input: { body: string; frame?: number | null; frameEnd?: number | null; reviewableId?: string | null },
  ) {
    if (!guest.link.can_comment) throw new Forbidden('This guest link does not allow comments');
    await heldVersion(this.deps, guest.link, versionId);
    const name = guest.session.guest_name;
    const data: Record<string, unknown> = { guestName: name, guestLinkId: guest.linkId };
    if (typeof input.frame === 'number') data.frame = input.frame;
    if (typeof input.frameEnd === 'number') data.frameEnd = input.frameEnd;
    if (input.reviewableId) data.reviewableId = input.reviewableId;
    return this.db.transaction().execute(async () => {
      const id = await this.deps.activities.create(guest.link.project_name, 'version', versionId, {
        type: 'comment',
        author: guestActor(name).name,
        body: input.body,
        data,
      });
      await this.record(guest, 'comment', `version ${versionId}`);
      return { id: plain(id) };
    });
  }

  /** Set a version to the project's approved status (its first "done" status for versions, "Approved" first). */
  async approve(guest: Guest, versionId: string) {
    if (!guest.link.can_approve) throw new Forbidden('This guest link does not allow approving');
    const version = await heldVersion(this.deps, guest.link, versionId);
    const project = await this.deps.projects.find(guest.link.project_name);
    const done = (project?.statuses ?? []).filter(
      (s) => s.state === 'done' && (!s.scope || s.scope.includes('version')),
    );
    const status = done.find((s) => s.name.toLowerCase() === 'approved') ?? done[0];
    if (!status) throw new NotFound(`Project ${guest.link.project_name} has no approved status for versions`);
    await this.db.transaction().execute(async () => {
      if (version.status !== status.name)
        await this.deps.entities.update(
          guestActor(guest.session.guest_name),
          guest.link.project_name,
          'version',
          versionId,
          { status: status.name },
        );
      await this.record(guest, 'approve', `version ${versionId}: ${status.name}`);
    });
    return { status: status.name };
  }

  private record(guest: Guest, action: LogAction, detail: string | null) {
    return this.store.log({
      link_id: guest.link.id,
      action,
      guest_name: guest.session.guest_name,
      address: guest.address,
      detail,
    });
  }
}
