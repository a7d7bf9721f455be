import { NoContent, type AddonApp } from '@pipewright/sdk';
import { Clock, Command, HandOffBody, JoinQuery, Session, SessionParams } from './schemas.js';
import type { ReviewSessions } from './service.js';

const BASE = '/api/projects/:project_name/lists/:list_id/session';
const answer = { 200: Session };

/** A synced review session of a list of versions: its state, joining, the driver's commands and hand-offs. */
export function sessionRoutes(sessions: ReviewSessions) {
  return async (app: AddonApp) => {
    app.get(
      BASE,
      {
        schema: {
          summary: 'The review session of a list: what is shown, whether it plays and since when, who drives',
          params: SessionParams,
          response: answer,
        },
      },
      async ({ caller, params }) => sessions.get(caller, params.project_name, params.list_id),
    );

    app.post(
      `${BASE}/join`,
      {
        schema: {
          summary: 'Join the session (the first to join drives; guests watch)',
          description: 'role: reviewer (the default: may be handed control) or viewer (watches).',
          params: SessionParams,
          querystring: JoinQuery,
          response: answer,
        },
      },
      async ({ caller, params, query }) =>
        sessions.join(caller, params.project_name, params.list_id, query.role),
    );

    app.post(
      `${BASE}/leave`,
      {
        schema: {
          summary: 'Leave the session (a driver who leaves leaves it without one)',
          params: SessionParams,
          response: answer,
        },
      },
      async ({ caller, params }) => sessions.leave(caller, params.project_name, params.list_id),
    );

    app.post(
      `${BASE}/commands`,
      {
        schema: {
          summary:
            "The driver's play, pause, seek, choice of version, speed, pan and zoom, compare or annotations",
          description:
            'Play carries no time: the server stamps startedAt with its own clock, and every client works out the ' +
            'frame from it, corrected by its offset to the server (GET /api/review-sessions/clock).',
          params: SessionParams,
          body: Command,
          response: answer,
        },
      },
      async ({ caller, params, body }) => sessions.command(caller, params.project_name, params.list_id, body),
    );

    app.post(
      `${BASE}/driver`,
      {
        schema: {
          summary:
            'Hand control to a member (the driver, or a manager; a member takes it when nobody drives)',
          params: SessionParams,
          body: HandOffBody,
          response: answer,
        },
      },
      async ({ caller, params, body }) =>
        sessions.handOff(caller, params.project_name, params.list_id, body.to),
    );

    app.post(
      `${BASE}/request`,
      {
        schema: {
          summary: 'Ask the driver for control',
          params: SessionParams,
          response: { 204: NoContent },
        },
      },
      async ({ caller, params }) => {
        await sessions.requestControl(caller, params.project_name, params.list_id);
      },
    );

    app.get(
      '/api/review-sessions/clock',
      {
        schema: {
          summary: "The server's clock, for clients to work out their offset to it",
          response: { 200: Clock },
        },
      },
      async () => sessions.serverTime(),
    );
  };
}
