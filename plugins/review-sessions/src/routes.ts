import type { AddonApp } from '@pipewright/sdk';
import { Clock, Session, SessionAction, SessionParams } from './schemas.js';
import type { ReviewSessions } from './service.js';

const BASE = '/api/projects/:project_name/lists/:list_id/session';
const answer = { 200: Session };

/** A synced review session of a list of versions: its state, and what those in it do (one route for all). */
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
      BASE,
      {
        schema: {
          summary:
            'Take part in the session, hand control on or ask for it, or (the driver) play, pause, seek and show',
          description:
            'join (the first to join drives; role viewer only watches; guests watch), leave, hand (the driver or ' +
            'a manager gives control to a member; anyone takes it while nobody drives), request (asks the ' +
            'driver); the driver alone plays, pauses, seeks, selects a version, and sets speed, view, compare and ' +
            'annotations. Play and seek carry no time of their own unless at says when they happened by the ' +
            "server's clock: every client works out the frame from startedAt, corrected by its offset to the " +
            'server (GET /api/review-sessions/clock).',
          params: SessionParams,
          body: SessionAction,
          response: answer,
        },
      },
      async ({ caller, params, body }) => sessions.act(caller, params.project_name, params.list_id, body),
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
