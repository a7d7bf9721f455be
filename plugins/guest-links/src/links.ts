import { Forbidden, isoTime, Unauthorized } from '@pipewright/sdk';
import type { LinkRow } from './store.js';

const plain = (id: string) => id.replaceAll('-', '');

/**
 * 403 for a link that ended (revoked or expired) and every session of it: the token is known, and what it opened
 * is closed for good. The guest page shows the sentence.
 */
export class LinkEnded extends Forbidden {
  constructor(detail: string) {
    super(detail, 'guest-link-ended');
  }
}

/** 401: no guest session, or one this server never gave (open the link first). */
export class NoGuestSession extends Unauthorized {
  constructor(detail = 'No guest session: open the guest link first') {
    super(detail, 'guest-session');
  }
}

/** Why a link no longer opens, or null while it does. */
export function endOf(link: LinkRow, now = Date.now()): string | null {
  if (link.revoked_at) return 'This guest link was revoked';
  if (link.expires_at && new Date(link.expires_at).getTime() <= now)
    return `This guest link expired on ${isoTime(link.expires_at)}`;
  return null;
}

export function requireOpen(link: LinkRow): void {
  const ended = endOf(link);
  if (ended) throw new LinkEnded(ended);
}

export const presentLink = (link: LinkRow) => ({
  id: plain(link.id),
  projectName: link.project_name,
  target: link.target,
  targetId: plain(link.target_id),
  label: link.label,
  expiresAt: link.expires_at ? isoTime(link.expires_at) : null,
  hasPassword: link.password_hash !== null,
  canComment: link.can_comment,
  canDownload: link.can_download,
  canApprove: link.can_approve,
  createdBy: link.created_by,
  createdAt: isoTime(link.created_at),
  revokedAt: link.revoked_at ? isoTime(link.revoked_at) : null,
  revokedBy: link.revoked_by,
  active: endOf(link) === null,
});

/** The topic every server process hears when a link is revoked, to end the connections it holds for it. */
export const REVOKED_TOPIC = 'guest-link.revoked';
