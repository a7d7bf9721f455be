// The one place where media time and frame numbers meet. A browser knows only seconds; review speaks in the shot's
// frame numbers (1001 on), and annotations are keyed on those integers. Frames are counted from a frame's own
// timestamp (never accumulated), and a seek goes to the middle of a frame so that rounding never lands on its
// neighbour. The rule of where the media's first frame falls (handles or not) is the sdk's, shared with the server.
import { carriesHandles, firstNumberOf, rangeOf, type FrameRange } from '@pipewright/sdk/ui';

export { carriesHandles, firstNumberOf, rangeOf, type FrameRange };

export const PLAIN_RANGE: FrameRange = { frameStart: 1, frameEnd: null, handleStart: 0, handleEnd: 0 };

/** The media's frame (0 for its first) shown at a time: a frame's own timestamp counts as that frame. */
export const mediaFrameAt = (seconds: number, fps: number) => Math.max(0, Math.floor(seconds * fps + 1e-3));

/** The time to seek to for a media frame: its middle. */
export const timeOfMediaFrame = (mediaFrame: number, fps: number) => (mediaFrame + 0.5) / fps;

/** Whether a frame number of media that carries its handles lies outside the cut: a handle. */
export const isHandle = (number: number, range: FrameRange) =>
  number < range.frameStart || (range.frameEnd !== null && number > range.frameEnd);
