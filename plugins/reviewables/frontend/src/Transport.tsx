import type { ReactNode } from 'react';
import { carriesHandles, firstNumberOf, isHandle, type FrameRange } from './frames';
import { keepFocus, PlayerButton } from './PlayerButton';
import { fpsText, timecode, type Timing } from './timecode';

// The player's controls under the picture: transport buttons, a timeline in the shot's frame numbers with the
// handle frames shaded, the timecode, and the frame readout (which says when a frame is a handle).

export function Transport({
  mediaFrame,
  last,
  range,
  timing,
  playing,
  rate,
  waiting,
  onSeek,
  onStep,
  onToggle,
  children,
}: {
  /** The media frame shown (0 for the first). */
  mediaFrame: number;
  /** The media's last frame, or null when its length is unknown. */
  last: number | null;
  range: FrameRange;
  timing: Timing;
  playing: boolean;
  /** The playback speed, when other than normal (L pressed again). */
  rate: number;
  waiting: boolean;
  onSeek(mediaFrame: number): void;
  onStep(frames: number): void;
  onToggle(): void;
  /** More controls at the row's end (the zoom). */
  children?: ReactNode;
}) {
  // Frame N of the media carries the number firstNumber + N; handles are marked only on media that holds them.
  const withHandles = carriesHandles(range, timing.frames);
  const firstNumber = firstNumberOf(range, timing.frames);
  const lastNumber = last === null ? null : firstNumber + last;
  const number = firstNumber + mediaFrame;
  const handle = withHandles && isHandle(number, range);
  const headHandles = withHandles ? range.handleStart : 0;
  const tailHandles = withHandles ? range.handleEnd : 0;
  const handles = withHandles ? `, handles ${range.handleStart} + ${range.handleEnd}` : '';
  const span = last === null ? 1 : Math.max(1, last + 1);
  const button = (label: string, title: string, text: string, onClick: () => void, disabled = false) => (
    <PlayerButton label={label} title={title} onClick={onClick} disabled={disabled}>
      {text}
    </PlayerButton>
  );
  return (
    <div className="pwr-transport" role="group" aria-label="Playback">
      {button('First frame', 'First frame (Home)', '|◀◀', () => onSeek(0))}
      {button('Previous frame', 'Previous frame (←, J)', '◀|', () => onStep(-1))}
      <button
        type="button"
        className="pwr-play"
        onMouseDown={keepFocus}
        onClick={onToggle}
        title={playing ? 'Pause (space, K)' : 'Play (space, L)'}
        aria-label={playing ? 'Pause' : 'Play'}
      >
        {playing ? '❚❚' : '▶'}
      </button>
      {button('Next frame', 'Next frame (→)', '|▶', () => onStep(1))}
      {button('Last frame', 'Last frame (End)', '▶▶|', () => last !== null && onSeek(last), last === null)}
      <span className="pwr-timeline">
        {headHandles > 0 && (
          <span
            className="pwr-handle"
            style={{ left: 0, width: `${(100 * headHandles) / span}%` }}
            title={`Head handle: ${headHandles} frames`}
          />
        )}
        {tailHandles > 0 && (
          <span
            className="pwr-handle"
            style={{ right: 0, width: `${(100 * tailHandles) / span}%` }}
            title={`Tail handle: ${tailHandles} frames`}
          />
        )}
        <input
          className="pwr-scrub"
          type="range"
          min={firstNumber}
          max={lastNumber ?? firstNumber}
          step={1}
          value={firstNumber + Math.min(mediaFrame, last ?? mediaFrame)}
          disabled={last === null}
          aria-label="Frame"
          onChange={(event) => onSeek(Number(event.target.value) - firstNumber)}
        />
      </span>
      <output
        className="pwr-timecode"
        aria-label="Timecode"
        title="Hours:minutes:seconds:frames from the first frame"
      >
        {timecode(mediaFrame, timing.fps)}
      </output>
      <span className={handle ? 'pwr-frame pwr-frame-handle' : 'pwr-frame'} aria-label="Frame number">
        frame {number}
        {handle ? ' · handle' : ''}
      </span>
      <span
        className="muted pw-small"
        aria-label="Frame range"
        title="The media's frames in the shot's numbering"
      >
        {lastNumber === null ? `from ${firstNumber}` : `${firstNumber}–${lastNumber}`}
        {handles}
      </span>
      <span
        className="muted pw-small"
        title={timing.known ? 'From the file' : 'The file does not say; assumed'}
      >
        {fpsText(timing.fps)} fps{timing.known ? '' : ' (assumed)'}
        {rate !== 1 ? ` · ×${rate}` : ''}
      </span>
      {waiting && <span className="muted pw-small">Loading…</span>}
      {children}
    </div>
  );
}
