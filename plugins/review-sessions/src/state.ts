// A review session's state, and how each command of its driver changes it. Playback is kept as where it started and
// when (the server's clock), never as a running frame: every client works the frame out from its own clock,
// corrected by its offset to the server's, so all of them show the same frame without a stream of updates.

import type { Command, Role, SessionState } from '@pipewright/sdk';

export type { Command, Role, SessionState };

export const started = (versionId: string | null, driver: string): SessionState => ({
  versionId,
  reviewableId: null,
  frame: 1,
  playing: false,
  speed: 1,
  startedAt: null,
  compare: null,
  view: { zoom: 1, x: 0, y: 0 },
  annotations: true,
  driver,
  members: { [driver]: 'driver' },
});

/** How far back a driver's own account of when it started playing is believed (its command was on the way). */
const TRUSTED_MS = 5000;

/**
 * The state after a driver's command, at server time now (ms). Play and seek may say when they happened, by the
 * server's clock as the driver reckons it: playback then counts from that moment, not from the command's arrival.
 */
export function applied(state: SessionState, command: Command, now: number): SessionState {
  const since = (at?: number) => (at !== undefined && at <= now && at >= now - TRUSTED_MS ? at : now);
  switch (command.command) {
    case 'play':
      return {
        ...state,
        frame: command.frame,
        playing: true,
        startedAt: since(command.at),
        speed: command.speed ?? state.speed,
      };
    case 'pause':
      return { ...state, frame: command.frame, playing: false, startedAt: null };
    case 'seek':
      return { ...state, frame: command.frame, startedAt: state.playing ? since(command.at) : null };
    case 'select':
      return {
        ...state,
        versionId: command.versionId,
        reviewableId: command.reviewableId ?? null,
        frame: command.frame ?? state.frame,
        playing: false,
        startedAt: null,
      };
    case 'speed':
      return { ...state, speed: command.speed };
    case 'view':
      return { ...state, view: command.view };
    case 'compare':
      return { ...state, compare: command.compare };
    case 'annotations':
      return { ...state, annotations: command.visible };
  }
}

/** Control handed to a member: the old driver reviews on, the new one drives. */
export function handedTo(state: SessionState, to: string): SessionState {
  const members = { ...state.members };
  if (state.driver && members[state.driver] === 'driver') members[state.driver] = 'reviewer';
  members[to] = 'driver';
  return { ...state, driver: to, members };
}
