import { useCallback, useEffect, useRef, useState } from 'react';
import type { MediaInfo } from './api';
import { fpsText, frameAt, lastFrame, timecode, timeOfFrame, timingOf } from './timecode';

// A video for review: frame-exact stepping and a timecode instead of the browser's seconds, and the keys
// reviewers expect (space plays and pauses, the arrows step one frame). The keys work anywhere on the screen
// except while typing (a label, a comment in the feed).

type VideoWithFrames = HTMLVideoElement & {
  requestVideoFrameCallback?(callback: (now: number, meta: { mediaTime: number }) => void): number;
  cancelVideoFrameCallback?(handle: number): void;
};

/** Why a browser could not play a video, for people. */
function playbackFailure(error: MediaError | null): string {
  switch (error?.code) {
    case MediaError.MEDIA_ERR_NETWORK:
      return 'The video could not be read from the server. Check the connection and choose it again.';
    case MediaError.MEDIA_ERR_DECODE:
      return 'This browser could not decode the video. A conversion to H.264 (8-bit 4:2:0, MP4) plays everywhere.';
    case MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED:
      return 'This browser cannot play this file as it is. A conversion to H.264 (8-bit 4:2:0, MP4) plays everywhere.';
    default:
      return 'The video stopped with an error. Choose it again to retry.';
  }
}

/** Keys meant for a field being typed in, or a focused control's own action, are not the player's. */
function isTyping(target: EventTarget | null): boolean {
  const element = target instanceof HTMLElement ? target : null;
  return !!element?.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])');
}

export function VideoPlayer({
  src,
  info,
  title,
  onFailed,
}: {
  src: string;
  info: MediaInfo | null;
  /** What is playing, for the player's accessible name. */
  title: string;
  onFailed(message: string): void;
}) {
  const video = useRef<VideoWithFrames>(null);
  const [playing, setPlaying] = useState(false);
  const [duration, setDuration] = useState<number | null>(null);
  const [frame, setFrame] = useState(0);
  const [waiting, setWaiting] = useState(true);
  const timing = timingOf(info, duration);
  const last = lastFrame(timing);
  // The keyboard handler is registered once; it reads the frame and the timing from here.
  const now = useRef({ frame, fps: timing.fps, last });
  now.current = { frame, fps: timing.fps, last };
  // The frame a seek is on its way to. Until the browser has finished seeking, frames it still presents from
  // before are not shown (they would pull the display back), and the next step counts from the target.
  const target = useRef<number | null>(null);

  // Follow the picture: every presented frame while playing (requestVideoFrameCallback gives the frame's own
  // time), the time after each seek, and the time updates where frame callbacks are not available.
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const show = (seconds: number) => {
      if (element.seeking || target.current !== null) return;
      setFrame(frameAt(seconds, now.current.fps));
    };
    let handle: number | null = null;
    const frames = !!element.requestVideoFrameCallback;
    const onFrame = (_now: number, meta: { mediaTime: number }) => {
      show(meta.mediaTime);
      handle = element.requestVideoFrameCallback!(onFrame);
    };
    if (frames) handle = element.requestVideoFrameCallback!(onFrame);
    const onSeeked = () => {
      // Fired once the last of several quick seeks is done.
      if (element.seeking) return;
      target.current = null;
      show(element.currentTime);
    };
    const onTime = () => !frames && show(element.currentTime);
    const onPlay = () => setPlaying(true);
    const onPause = () => setPlaying(false);
    const onMeta = () => setDuration(Number.isFinite(element.duration) ? element.duration : null);
    const onReady = () => setWaiting(false);
    const onWaiting = () => setWaiting(true);
    const onError = () => onFailed(playbackFailure(element.error));
    const listeners: [string, () => void][] = [
      ['seeked', onSeeked],
      ['timeupdate', onTime],
      ['play', onPlay],
      ['pause', onPause],
      ['ended', onPause],
      ['loadedmetadata', onMeta],
      ['canplay', onReady],
      ['playing', onReady],
      ['waiting', onWaiting],
      ['error', onError],
    ];
    for (const [name, listener] of listeners) element.addEventListener(name, listener);
    return () => {
      for (const [name, listener] of listeners) element.removeEventListener(name, listener);
      if (handle !== null) element.cancelVideoFrameCallback?.(handle);
    };
  }, [src, onFailed]);

  const toggle = useCallback(() => {
    const element = video.current;
    if (!element) return;
    if (element.paused || element.ended) {
      // At the end, play starts over, as every player does.
      if (element.ended) element.currentTime = 0;
      element.play().catch((error: Error) => {
        // A pause during the start is not a failure.
        if (error.name !== 'AbortError') onFailed(`The video could not start: ${error.message}`);
      });
    } else element.pause();
  }, [onFailed]);

  // A link may ask for the video to start at once (?play=1: the overview's Open in review). Once: the address
  // forgets it, so another reviewable chosen later, or a reload, does not start by itself.
  useEffect(() => {
    const address = new URL(location.href);
    if (address.searchParams.get('play') !== '1') return;
    address.searchParams.delete('play');
    history.replaceState(history.state, '', address);
    toggle();
  }, [toggle]);

  const seekFrame = useCallback((wanted: number) => {
    const element = video.current;
    if (!element) return;
    const { fps, last: end } = now.current;
    const frameNumber = Math.max(0, end === null ? wanted : Math.min(end, wanted));
    element.pause();
    target.current = frameNumber;
    element.currentTime = timeOfFrame(frameNumber, fps);
    setFrame(frameNumber);
  }, []);

  const step = useCallback(
    (delta: number) => seekFrame((target.current ?? now.current.frame) + delta),
    [seekFrame],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target))
        return;
      if (event.key === ' ') {
        // A focused button keeps its own space (the browser clicks it).
        if (event.target instanceof HTMLElement && event.target.closest('button, a[href]')) return;
        event.preventDefault();
        toggle();
      } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        const size = event.shiftKey ? Math.max(1, Math.round(now.current.fps)) : 1;
        step(event.key === 'ArrowLeft' ? -size : size);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [toggle, step]);

  return (
    <div className="pwr-video">
      <video
        ref={video}
        src={src}
        preload="auto"
        playsInline
        aria-label={`Video: ${title}`}
        onClick={toggle}
        data-frame={frame}
      />
      <div className="pwr-transport" role="group" aria-label="Playback">
        <button type="button" onClick={() => seekFrame(0)} title="First frame" aria-label="First frame">
          |◀◀
        </button>
        <button type="button" onClick={() => step(-1)} title="Previous frame (←)" aria-label="Previous frame">
          ◀|
        </button>
        <button
          type="button"
          className="pwr-play"
          onClick={toggle}
          title={playing ? 'Pause (space)' : 'Play (space)'}
          aria-label={playing ? 'Pause' : 'Play'}
        >
          {playing ? '❚❚' : '▶'}
        </button>
        <button type="button" onClick={() => step(1)} title="Next frame (→)" aria-label="Next frame">
          |▶
        </button>
        <button
          type="button"
          onClick={() => last !== null && seekFrame(last)}
          disabled={last === null}
          title="Last frame"
          aria-label="Last frame"
        >
          ▶▶|
        </button>
        <input
          className="pwr-scrub"
          type="range"
          min={0}
          max={last ?? 0}
          step={1}
          value={Math.min(frame, last ?? frame)}
          disabled={last === null}
          aria-label="Frame"
          onChange={(event) => seekFrame(Number(event.target.value))}
        />
        <output className="pwr-timecode" aria-label="Timecode" title="Hours:minutes:seconds:frames">
          {timecode(frame, timing.fps)}
        </output>
        <span className="pwr-frame muted" aria-label="Frame number">
          {/* People count frames from 1; the timecode counts from 00. */}
          {timing.frames ? `frame ${frame + 1} of ${timing.frames}` : `frame ${frame + 1}`}
        </span>
        <span
          className="muted pw-small"
          title={timing.known ? 'From the file' : 'The file does not say; assumed'}
        >
          {fpsText(timing.fps)} fps{timing.known ? '' : ' (assumed)'}
        </span>
        {waiting && <span className="muted pw-small">Loading…</span>}
      </div>
    </div>
  );
}
