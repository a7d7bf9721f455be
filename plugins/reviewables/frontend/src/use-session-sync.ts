import { useEffect, useRef, type RefObject } from 'react';
import type { SessionState } from './review-session';
import { mediaFrameAt, timeOfMediaFrame } from './frames';
import { frameAt } from './session-time';
import type { ReviewSession } from './use-review-session';

/** How often a following player checks its frame against the session's while it plays. */
const CHECK_MS = 200;
/** Drift under this many frames is taken up by playing a little faster or slower, over it by a seek. */
const NUDGE_FRAMES = 1;
/** How far ahead a following player seeks while playing: about what a seek takes to show its picture. */
const SEEK_LEAD_S = 0.05;
/** How long a player that takes control has to reach the session's frame before its own moves count. */
const SETTLE_MS = 400;

/** Put the video where the session is at this server time: paused on its frame, or playing in step. */
function show(
  element: HTMLVideoElement,
  state: SessionState,
  serverNow: number,
  fps: number,
  firstNumber: number,
) {
  const target = frameAt(state, serverNow, fps) - firstNumber;
  if (!state.playing) {
    if (!element.paused) element.pause();
    // Within the media (another version's frame may lie past this one's end), so that a seek can reach it.
    const last = Number.isFinite(element.duration) ? Math.ceil(element.duration * fps) - 1 : Infinity;
    const index = Math.max(0, Math.min(last, Math.round(target)));
    if (mediaFrameAt(element.currentTime, fps) !== index && !element.seeking)
      element.currentTime = timeOfMediaFrame(index, fps);
    return;
  }
  const drift = element.currentTime * fps - target;
  if (element.paused || Math.abs(drift) > NUDGE_FRAMES) {
    // A seek takes a moment: aim a little ahead, where the session will be when the picture is back.
    if (!element.seeking) element.currentTime = Math.max(0, target / fps + SEEK_LEAD_S);
    if (element.paused) void element.play().catch(() => undefined);
  }
  // Half a second to take up a small drift: quick enough to hold within a frame, gentle enough not to be heard.
  element.playbackRate = state.speed * Math.min(1.1, Math.max(0.9, 1 - (2 * drift) / fps));
}

/**
 * A video in a synced review session. The driver's play, pause and seeks become the session's commands; every other
 * player shows the session's frame: paused on it exactly, or playing from where and when the driver started,
 * by the server's clock, nudging its speed for a small drift and seeking for a large one.
 */
export function useSessionSync(
  video: RefObject<HTMLVideoElement | null>,
  session: ReviewSession | null,
  fps: number,
  firstNumber: number,
) {
  const driving = !!session?.driving;
  const command = session?.command;
  const state = session?.state ?? null;
  const serverNow = session?.serverNow;
  // The driver's effect reads them when control arrives, without running again at every change.
  const stateRef = useRef(state);
  stateRef.current = state;
  const serverNowRef = useRef(serverNow);
  serverNowRef.current = serverNow;

  // The driver: what the player does is what the session does. On taking control (or coming back to the page), the
  // player first goes where the session is; what it does meanwhile is not a command.
  useEffect(() => {
    const element = video.current;
    if (!element || !driving || !command) return;
    let settling = true;
    const settled = setTimeout(() => (settling = false), SETTLE_MS);
    const latest = stateRef.current;
    if (latest) show(element, latest, serverNowRef.current?.() ?? Date.now(), fps, firstNumber);
    const shown = () => firstNumber + mediaFrameAt(element.currentTime, fps);
    const send = (next: () => Parameters<NonNullable<typeof command>>[0]) => () => {
      if (!settling) void command(next());
    };
    // Playback counts from the frame's start, by the server's clock: a paused player sits mid-frame.
    const onPlay = send(() => ({
      command: 'play',
      frame: shown(),
      speed: element.playbackRate,
      at: (serverNowRef.current?.() ?? Date.now()) - 500 / fps,
    }));
    const onPause = send(() => ({ command: 'pause', frame: shown() }));
    const onSeeked = () => element.paused && send(() => ({ command: 'seek', frame: shown() }))();
    element.addEventListener('play', onPlay);
    element.addEventListener('pause', onPause);
    element.addEventListener('seeked', onSeeked);
    return () => {
      clearTimeout(settled);
      element.removeEventListener('play', onPlay);
      element.removeEventListener('pause', onPause);
      element.removeEventListener('seeked', onSeeked);
    };
  }, [video, driving, command, fps, firstNumber]);

  // Everyone else: show the session's frame, now and while it plays.
  useEffect(() => {
    const element = video.current;
    if (!element || driving || !state || !serverNow) return;
    const follow = () => show(element, state, serverNow(), fps, firstNumber);
    follow();
    // A player still loading puts itself on its first frame once it can: each seek that ends elsewhere than the
    // session is followed by another (a seek under way is never replaced).
    element.addEventListener('loadeddata', follow);
    element.addEventListener('seeked', follow);
    const timer = state.playing ? setInterval(follow, CHECK_MS) : undefined;
    return () => {
      clearInterval(timer);
      element.removeEventListener('loadeddata', follow);
      element.removeEventListener('seeked', follow);
    };
  }, [video, driving, state, serverNow, fps, firstNumber]);
}
