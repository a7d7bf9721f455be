import type { MediaInfo } from './api';

// Frames and timecode of a video, from ffprobe's frame rate. A browser knows only seconds: the screen turns them into
// frame numbers, and seeks to the middle of a frame so that rounding never lands on its neighbour.

/** What the player assumes when the media info has no frame rate (24 is the most common in film and animation). */
export const FALLBACK_FPS = 24;

export interface Timing {
  fps: number;
  /** Whether fps came from the file (false: the fallback). */
  known: boolean;
  /** Frames in the clip, when known. */
  frames: number | null;
}

export function timingOf(info: MediaInfo | null, durationSeconds: number | null): Timing {
  const fps = info?.frameRate && info.frameRate > 0 ? info.frameRate : null;
  const rate = fps ?? FALLBACK_FPS;
  const seconds = durationSeconds && Number.isFinite(durationSeconds) ? durationSeconds : info?.duration;
  const frames = info?.frameCount ?? (seconds ? Math.round(seconds * rate) : null);
  return { fps: rate, known: fps !== null, frames };
}

/** The frame shown at a time: a frame's own timestamp counts as that frame, despite floating-point error. */
export const frameAt = (seconds: number, fps: number) => Math.max(0, Math.floor(seconds * fps + 1e-3));

/** The time to seek to for a frame: its middle. */
export const timeOfFrame = (frame: number, fps: number) => (frame + 0.5) / fps;

/** The last frame's number (frames count from 0), or null when the length is unknown. */
export const lastFrame = (timing: Timing) => (timing.frames ? timing.frames - 1 : null);

const two = (n: number) => String(n).padStart(2, '0');

/**
 * HH:MM:SS:FF for a frame number, counting whole-number frames per second (non-drop-frame: 23.976 counts as 24,
 * as editorial timecode does).
 */
export function timecode(frame: number, fps: number): string {
  const base = Math.max(1, Math.round(fps));
  const seconds = Math.floor(frame / base);
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}:${two(frame % base)}`;
}

/** 24, 23.976, 29.97: a frame rate as people write it. */
export const fpsText = (fps: number) => String(Math.round(fps * 1000) / 1000);
