import type { PipewrightClient } from '@pipewright/sdk/client';
import { callRoute } from '@pipewright/sdk/ui';
import type { ClockSample, Playback } from './session-time';

// The review sessions addon's routes, as the review screen uses them.

export type Role = 'driver' | 'reviewer' | 'viewer';

export interface SessionState extends Playback {
  listId: string;
  revision: number;
  serverTime: number;
  versionId: string | null;
  reviewableId: string | null;
  compare: Record<string, unknown> | null;
  view: { zoom: number; x: number; y: number };
  annotations: boolean;
  driver: string | null;
  members: Record<string, Role>;
}

export type SessionCommand =
  | { command: 'play'; frame: number; speed?: number; at?: number }
  | { command: 'pause'; frame: number }
  | { command: 'seek'; frame: number; at?: number }
  | { command: 'select'; versionId: string; reviewableId?: string | null; frame?: number }
  | { command: 'speed'; speed: number }
  | { command: 'compare'; compare: Record<string, unknown> | null }
  | { command: 'annotations'; visible: boolean };

const at = (project: string, listId: string) =>
  `/api/projects/${encodeURIComponent(project)}/lists/${listId}/session`;

export const joinSession = (client: PipewrightClient, project: string, listId: string, role?: 'viewer') =>
  callRoute<SessionState>(client, `${at(project, listId)}/join${role ? `?role=${role}` : ''}`, {
    method: 'POST',
  });

export const leaveSession = (client: PipewrightClient, project: string, listId: string) =>
  callRoute<SessionState>(client, `${at(project, listId)}/leave`, { method: 'POST' });

export const sendCommand = (
  client: PipewrightClient,
  project: string,
  listId: string,
  command: SessionCommand,
) => callRoute<SessionState>(client, `${at(project, listId)}/commands`, { method: 'POST', body: command });

export const handControl = (client: PipewrightClient, project: string, listId: string, to: string) =>
  callRoute<SessionState>(client, `${at(project, listId)}/driver`, { method: 'POST', body: { to } });

export const askForControl = (client: PipewrightClient, project: string, listId: string) =>
  callRoute(client, `${at(project, listId)}/request`, { method: 'POST' });

/** One exchange with the server's clock. */
export async function sampleClock(client: PipewrightClient): Promise<ClockSample> {
  const sent = Date.now();
  const { serverTime } = await callRoute<{ serverTime: number }>(client, '/api/review-sessions/clock');
  return { sent, received: Date.now(), serverTime };
}
