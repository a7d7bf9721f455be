// Where review media's frames meet the shot's frame numbers: one rule for the review player, the annotations and
// the review reports, so a frame has the same number on screen, in the API, in every export and in a report.

/** The shot's cut in its own frame numbers, and the handles around it (AYON's frameStart, frameEnd and handles). */
export interface FrameRange {
  /** The cut's first frame (the version's or shot's frameStart; 1 when neither has one). */
  frameStart: number;
  /** The cut's last frame, when known. */
  frameEnd: number | null;
  /** Frames kept before and after the cut. */
  handleStart: number;
  handleEnd: number;
}

const whole = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null;

/**
 * The range from the version's attributes, falling back to its folder's (the shot's) for what the version does not
 * say; frames count from 1 when neither has a frameStart.
 */
export function rangeOf(
  versionAttrib: Record<string, unknown>,
  folderAttrib: Record<string, unknown>,
): FrameRange {
  const pick = (name: string) => whole(versionAttrib[name]) ?? whole(folderAttrib[name]);
  return {
    frameStart: pick('frameStart') ?? 1,
    frameEnd: pick('frameEnd'),
    handleStart: Math.max(0, pick('handleStart') ?? 0),
    handleEnd: Math.max(0, pick('handleEnd') ?? 0),
  };
}

/**
 * Whether the media carries the handles around the cut, as review media rendered by AYON's publish does: it is
 * longer than the cut by exactly the handles, and its first frame is frameStart - handleStart. Any other media is
 * taken to start at frameStart, with no frame marked as a handle (a frameEnd inherited from the project's defaults
 * says nothing about this clip).
 */
export function carriesHandles(range: FrameRange, frames: number | null): boolean {
  if (range.frameEnd === null || frames === null || !(range.handleStart || range.handleEnd)) return false;
  return frames === range.frameEnd - range.frameStart + 1 + range.handleStart + range.handleEnd;
}

/** The number of the media's first frame in the shot's numbering. */
export const firstNumberOf = (range: FrameRange, frames: number | null) =>
  carriesHandles(range, frames) ? range.frameStart - range.handleStart : range.frameStart;

const two = (n: number) => String(n).padStart(2, '0');

/**
 * HH:MM:SS:FF for a media frame (its first is 00:00:00:00), counting whole-number frames per second
 * (non-drop-frame: 23.976 counts as 24, as editorial timecode does).
 */
export function timecode(frame: number, fps: number): string {
  const base = Math.max(1, Math.round(fps));
  const seconds = Math.floor(frame / base);
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}:${two(frame % base)}`;
}
