import type { PipewrightClient } from '@pipewright/sdk/client';
import { callRoute } from '@pipewright/sdk/ui';
import type { Command, Role, Session } from '@pipewright/sdk/ui';
import type { ClockSample } from './session-time';

// The review sessions addon's routes, as the review screen uses them.

/** A session as the server holds it, and the driver's commands (the sdk's shapes, which the server keeps). */
export type SessionState = Session;
export type SessionCommand = Command;
export type { Role };

const at = (project: string, listId: string) =>
  `/api/projects/${encodeURIComponent(project)}/lists/${listId}/session`;

/** Join (as a reviewer, or a viewer), leave, hand control on, ask for it, or (the driver) command. */
export type SessionAction =
  | { command: 'join'; role?: 'reviewer' | 'viewer' }
  | { command: 'leave' }
  | { command: 'hand'; to: string }
  | { command: 'request' }
  | SessionCommand;

export const act = (client: PipewrightClient, project: string, listId: string, action: SessionAction) =>
  callRoute<SessionState>(client, at(project, listId), { method: 'POST', body: action });

/** One exchange with the server's clock. */
export async function sampleClock(client: PipewrightClient): Promise<ClockSample> {
  const sent = Date.now();
  const { serverTime } = await callRoute<{ serverTime: number }>(client, '/api/review-sessions/clock');
  return { sent, received: Date.now(), serverTime };
}
