// The shapes of a synced review session, as the review sessions addon keeps it and the review screen follows it.

export type Role = 'driver' | 'reviewer' | 'viewer';

export interface SessionState {
  /** The version of the list on screen, and which of its reviewables (null: the first). */
  versionId: string | null;
  reviewableId: string | null;
  /** The frame shown when paused, or the one playback started from (the shot's numbering). */
  frame: number;
  playing: boolean;
  speed: number;
  /** Server time (ms since the epoch) when playback started from frame; null when paused. */
  startedAt: number | null;
  /** The compare view as the player keeps it (side B, mode, wipe, offset), or null. */
  compare: Record<string, unknown> | null;
  /** Pan and zoom of the picture: zoom 1 fits it; x and y move its centre, in fractions of its size. */
  view: { zoom: number; x: number; y: number };
  /** Whether annotations are shown over the picture. */
  annotations: boolean;
  /** Who drives: the only one whose play, pause, seek and choices everyone follows. */
  driver: string | null;
  /** Everyone who joined, with their role. */
  members: Record<string, Role>;
}

export type Command =
  | { command: 'play'; frame: number; speed?: number; at?: number }
  | { command: 'pause'; frame: number }
  | { command: 'seek'; frame: number; at?: number }
  | { command: 'select'; versionId: string; reviewableId?: string | null; frame?: number }
  | { command: 'speed'; speed: number }
  | { command: 'view'; view: SessionState['view'] }
  | { command: 'compare'; compare: Record<string, unknown> | null }
  | { command: 'annotations'; visible: boolean };

/** A session as the routes answer it and review_session.changed carries it. */
export type Session = SessionState & {
  listId: string;
  revision: number;
  /** The server's clock (ms since the epoch) when the answer was made. */
  serverTime: number;
};
