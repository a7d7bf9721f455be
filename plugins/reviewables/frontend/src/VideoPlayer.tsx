import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnnotatedMedia } from './annotations';
import { useAnnotator } from './Annotator';
import type { MediaInfo } from './api';
import { CompareLayer, type CompareSetup } from './Compare';
import { CompareControls } from './CompareControls';
import { firstNumberOf, mediaFrameAt, timeOfMediaFrame, type FrameRange } from './frames';
import { playbackFailure } from './playback-failure';
import { usePlayerKeys } from './player-keys';
import { useSessionContext } from './session-context';
import { lastFrame, timingOf } from './timecode';
import { Transport } from './Transport';
import { useReleasedVideo } from './use-released-video';
import { useSessionSync } from './use-session-sync';
import { useView } from './use-view';
import { ViewControls } from './ViewControls';
import { ViewFrame } from './ViewFrame';

// A video for review, with the habits of review tools: it opens paused on its first frame, frames are numbered
// in the shot's range, stepping is frame-exact, and the keys work anywhere on the screen except while typing.
// A click on the picture only gives the player the keys: playback never starts by surprise.

type VideoWithFrames = HTMLVideoElement & {
  requestVideoFrameCallback?(callback: (now: number, meta: { mediaTime: number }) => void): number;
  cancelVideoFrameCallback?(handle: number): void;
};

export function VideoPlayer({
  src,
  info,
  title,
  range,
  annotate,
  compare,
  onFailed,
}: {
  src: string;
  /** Side B and the way to compare, when a comparison is open: this player's transport drives both sides. */
  compare: CompareSetup | null;
  /** The reviewable whose annotations are shown and drawn over the picture. */
  annotate: AnnotatedMedia;
  info: MediaInfo | null;
  /** Where the media's frames sit in the shot's numbering. */
  range: FrameRange;
  /** What is playing, for the player's accessible name. */
  title: string;
  onFailed(message: string): void;
}) {
  const video = useRef<VideoWithFrames>(null);
  const [playing, setPlaying] = useState(false);
  const [rate, setRate] = useState(1);
  const [duration, setDuration] = useState<number | null>(null);
  const [frame, setShownFrame] = useState(0);
  const [waiting, setWaiting] = useState(true);
  const timing = timingOf(info, duration);
  const last = lastFrame(timing);
  const firstNumber = firstNumberOf(range, timing.frames);
  // In a synced review, the driver's player leads and every other follows it.
  useSessionSync(video, useSessionContext(), timing.fps, firstNumber);
  useReleasedVideo(video);
  // Seeks and steps are made once; they read the frame and the timing from here.
  const now = useRef({ frame, fps: timing.fps, last });
  now.current = { frame, fps: timing.fps, last };
  // The frame on screen is known at once to the next step: keys can come faster than renders on a busy machine.
  const setFrame = useCallback((mediaFrame: number) => {
    now.current.frame = mediaFrame;
    setShownFrame(mediaFrame);
  }, []);
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
      setFrame(mediaFrameAt(seconds, now.current.fps));
    };
    let handle: number | null = null;
    const frames = !!element.requestVideoFrameCallback;
    const onFrame = (_now: number, meta: { mediaTime: number }) => {
      // Paused, only seeks move the picture (onSeeked shows where they land): on a busy machine the callback of a
      // picture presented before a seek can come after it landed, and would pull the frame (and the next step) back.
      if (!element.paused) show(meta.mediaTime);
      handle = element.requestVideoFrameCallback!(onFrame);
    };
    if (frames) handle = element.requestVideoFrameCallback!(onFrame);
    const onSeeked = () => {
      if (element.seeking) return;
      // Seeks go one at a time (see seekFrame): a step made meanwhile is sought now.
      const wanted = target.current === null ? null : timeOfMediaFrame(target.current, now.current.fps);
      if (wanted !== null && Math.abs(element.currentTime - wanted) > 1e-4) {
        element.currentTime = wanted;
        return;
      }
      target.current = null;
      show(element.currentTime);
    };
    const onTime = () => !frames && show(element.currentTime);
    const onPlay = () => setPlaying(true);
    const onEnded = () => setPlaying(false);
    const onPause = () => {
      setPlaying(false);
      // A pause can leave the clock a little behind the picture shown: the clock is put on the middle of the frame
      // on screen (what the reviewer paused on), so the picture, the readout (and what is drawn on it) and a
      // compared side all agree. Seeking back to the clock's frame instead left Chromium showing the later
      // picture now and then. Not after a seek's own pause (that one already goes to a frame), nor at the end
      // (Play starts over from there).
      if (element.seeking || element.ended || target.current !== null) return;
      const mediaFrame = now.current.frame;
      target.current = mediaFrame;
      element.currentTime = timeOfMediaFrame(mediaFrame, now.current.fps);
      setFrame(mediaFrame);
    };
    const onMeta = () => {
      setDuration(Number.isFinite(element.duration) ? element.duration : null);
      // Review starts on the first frame, shown whole: the middle of frame 0, not its edge.
      if (element.paused && target.current === null) {
        target.current = 0;
        element.currentTime = timeOfMediaFrame(0, now.current.fps);
        setFrame(0);
      }
    };
    const onRate = () => setRate(element.playbackRate);
    const onReady = () => setWaiting(false);
    const onWaiting = () => setWaiting(true);
    const onError = () => onFailed(playbackFailure(element.error));
    const listeners: [string, () => void][] = [
      ['seeked', onSeeked],
      ['timeupdate', onTime],
      ['play', onPlay],
      ['pause', onPause],
      ['ended', onEnded],
      ['loadedmetadata', onMeta],
      ['ratechange', onRate],
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
  }, [src, onFailed, setFrame]);

  const toggle = useCallback(() => {
    const element = video.current;
    if (!element) return;
    if (element.paused || element.ended) {
      // At the end, play starts over, as every player does; Space plays at normal speed.
      if (element.ended) element.currentTime = 0;
      element.playbackRate = 1;
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

  const seekFrame = useCallback(
    (wanted: number) => {
      const element = video.current;
      if (!element) return;
      const { fps, last: end } = now.current;
      const mediaFrame = Math.max(0, end === null ? wanted : Math.min(end, wanted));
      element.pause();
      target.current = mediaFrame;
      // One seek at a time: Chromium can leave a seek that replaces one under way unfinished, or the picture of an
      // earlier frame on screen (quick steps, two videos compared). A seek under way goes on to this target once done.
      if (!element.seeking) element.currentTime = timeOfMediaFrame(mediaFrame, fps);
      setFrame(mediaFrame);
    },
    [setFrame],
  );

  // A link may name a frame in the shot's numbering (?frame=1017, as a comment on a frame links it): the player
  // goes there once the video is ready, and again when the address changes.
  useEffect(() => {
    if (duration === null) return;
    const follow = () => {
      const wanted = new URL(location.href).searchParams.get('frame');
      if (wanted && /^-?\d+$/.test(wanted)) seekFrame(Number(wanted) - firstNumber);
    };
    follow();
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, [duration, firstNumber, seekFrame]);

  /** Put a frame (in the shot's numbering) on screen; resolves once the picture shows it. */
  const showFrame = useCallback(
    (number: number) =>
      new Promise<void>((resolve) => {
        const element = video.current;
        if (!element) return resolve();
        const finish = () => {
          clearTimeout(late);
          element.removeEventListener('seeked', done);
          resolve();
        };
        // A seek that landed on an earlier target goes on to this one: not done yet.
        const done = () => !element.seeking && finish();
        const late = setTimeout(finish, 5000);
        element.addEventListener('seeked', done);
        seekFrame(number - firstNumber);
      }),
    [seekFrame, firstNumber],
  );
  const annotator = useAnnotator(annotate, video, firstNumber + frame, frame, showFrame);

  const step = useCallback(
    (delta: number) => seekFrame((target.current ?? now.current.frame) + delta),
    [seekFrame],
  );

  // L plays, and each L while playing doubles the speed; J slows a fast playback, else steps back (browsers
  // cannot play backwards); K stops.
  const forward = useCallback(() => {
    const element = video.current;
    if (!element) return;
    if (element.paused || element.ended) return toggle();
    element.playbackRate = Math.min(8, element.playbackRate * 2);
  }, [toggle]);
  const back = useCallback(() => {
    const element = video.current;
    if (element && !element.paused && element.playbackRate > 1) element.playbackRate /= 2;
    else step(-1);
  }, [step]);
  const stop = useCallback(() => {
    const element = video.current;
    if (!element) return;
    element.pause();
    element.playbackRate = 1;
  }, []);

  const space = usePlayerKeys({
    toggle,
    step,
    second: Math.max(1, Math.round(timing.fps)),
    first: () => seekFrame(0),
    last: () => last !== null && seekFrame(last),
    forward,
    back,
    stop,
  });

  // Pan and zoom: one transform for the picture, side B and the drawings, so they stay on one another.
  const view = useView(video, src);

  return (
    <div className="pwr-video">
      <ViewFrame
        view={view}
        space={space}
        className={compare ? `pwr-compare pwr-compare-${compare.state.mode}` : ''}
        picture={
          <video
            ref={video}
            src={src}
            preload="auto"
            playsInline
            aria-label={`Video: ${title}`}
            data-frame={frame}
            style={{ transform: view.transform }}
          />
        }
        drawings={annotator.overlay}
      >
        {compare && (
          <CompareLayer
            setup={compare}
            a={video}
            lead={{ frame, playing, rate, fps: timing.fps }}
            transform={view.transform}
          />
        )}
      </ViewFrame>
      <Transport
        mediaFrame={frame}
        last={last}
        range={range}
        timing={timing}
        playing={playing}
        rate={rate}
        waiting={waiting}
        onSeek={seekFrame}
        onStep={step}
        onToggle={toggle}
      >
        <ViewControls control={view} />
      </Transport>
      {compare && <CompareControls setup={compare} firstNumber={firstNumber} frame={frame} />}
      {annotator.toolbar}
    </div>
  );
}
