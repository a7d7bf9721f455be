import type { RequestUser } from '@pipewright/sdk';
import type { ClientInfo } from './api.js';
import type { SessionRow } from './sessions.js';

// Sessions as AYON's session lists show them. The token field holds the session's id, never its secret: tokens are
// kept hashed, and the id is what DELETE /api/users/{user}/sessions/{token} takes, so a client that lists sessions
// and ends one works unchanged.

const seconds = (date: Date) => date.getTime() / 1000;

/** AYON's ClientInfo (snake_case site_id: a plain pydantic model there) from what was noted at login. */
export function ayonClientInfo(info: ClientInfo | null) {
  if (!info) return null;
  const { ip, agent, platform, hostname, siteId } = info;
  return {
    ip: ip ?? '',
    languages: [],
    location: null,
    agent:
      agent || platform || hostname
        ? { platform: platform ?? null, client: agent ?? null, device: hostname ?? null }
        : null,
    site_id: siteId ?? null,
  };
}

/** An item of GET /api/auth/sessions: AYON's SessionModel, plus whether it is the caller's own. */
export function sessionModel(
  session: SessionRow,
  user: Record<string, unknown>,
  isService: boolean,
  caller: RequestUser,
) {
  return {
    user,
    token: session.id,
    created: seconds(session.createdAt),
    lastUsed: seconds(session.lastUsed),
    isService,
    isApiKey: session.isApiKey,
    clientInfo: ayonClientInfo(session.clientInfo),
    isCurrent: session.id === caller.sessionId,
  };
}

/** An item of GET /api/users/{user}/sessions: AYON's UserSessionModel. */
export function userSessionModel(session: SessionRow, isService: boolean) {
  return {
    token: session.id,
    isService,
    lastUsed: seconds(session.lastUsed),
    clientInfo: ayonClientInfo(session.clientInfo),
  };
}
