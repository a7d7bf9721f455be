// The one place where media time and frame numbers meet. A browser knows only seconds; review speaks in the shot's
// frame numbers (1001 on), and annotations are keyed on those integers. Frames are counted from a frame's own
// timestamp (never accumulated), and a seek goes to the middle of a frame so that rounding never lands on its
// neighbour.

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

export const PLAIN_RANGE: FrameRange = { frameStart: 1, frameEnd: null, handleStart: 0, handleEnd: 0 };

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

/** The media's frame (0 for its first) shown at a time: a frame's own timestamp counts as that frame. */
export const mediaFrameAt = (seconds: number, fps: number) => Math.max(0, Math.floor(seconds * fps + 1e-3));

/** The time to seek to for a media frame: its middle. */
export const timeOfMediaFrame = (mediaFrame: number, fps: number) => (mediaFrame + 0.5) / fps;

/** Whether a frame number of media that carries its handles lies outside the cut: a handle. */
export const isHandle = (number: number, range: FrameRange) =>
  number < range.frameStart || (range.frameEnd !== null && number > range.frameEnd);

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
