import type { MediaInfo } from './api';

// The timing of a video (frame rate and length, from ffprobe) and its timecode; frames.ts turns seconds into
// frame numbers.

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

/** The media's last frame (its first is 0), or null when the length is unknown. */
export const lastFrame = (timing: Timing) => (timing.frames ? timing.frames - 1 : null);

/**
 * HH:MM:SS:FF for a media frame (its first is 00:00:00:00), non-drop-frame: the sdk's rule, which the review reports
 * print too.
 */
export { timecode } from '@pipewright/sdk/ui';

/** 24, 23.976, 29.97: a frame rate as people write it. */
export const fpsText = (fps: number) => String(Math.round(fps * 1000) / 1000);
