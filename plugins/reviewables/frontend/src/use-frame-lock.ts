import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { mediaFrameAt, timeOfMediaFrame } from './frames';

// Side B follows side A frame for frame: one transport (A's) drives both. Paused, B is put exactly on A's frame
// plus the offset; playing, B plays along at A's speed and is put back whenever it has drifted a frame or more
// (two decoders never keep the same time on their own), and waits while A waits for data. Where A's frame plus
// the offset falls outside B, B waits on its first or last frame.

export interface Lead {
  /** A's media frame on screen (its first is 0). */
  frame: number;
  playing: boolean;
  rate: number;
  /** A's frame rate. */
  fps: number;
}

export interface Follower {
  fps: number;
  /** B's last media frame, when known. */
  last: number | null;
  /** B shows A's frame plus this. */
  offset: number;
  /** B knows its length and can be sought. */
  ready: boolean;
}

type VideoWithFrames = HTMLVideoElement & {
  requestVideoFrameCallback?(callback: (now: number, meta: { mediaTime: number }) => void): number;
  cancelVideoFrameCallback?(handle: number): void;
};

/** B's frame for a frame of A: A's plus the offset, within B (it waits on its first or last frame beyond). */
const frameOfB = (mediaFrame: number, follower: Follower) =>
  Math.max(0, Math.min(follower.last ?? Number.POSITIVE_INFINITY, mediaFrame));

/** How often B is sought again for one frame when its picture stays on another. */
const RESEEKS = 3;
/** How long after a seek B's picture should show its frame. */
const PRESENTED_MS = 150;

/** Settle B where it should be: put it on its frame, start or stop it, or move it back in step. */
function follow(leader: HTMLVideoElement, element: HTMLVideoElement, lead: Lead, follower: Follower) {
  const end = follower.last ?? Number.POSITIVE_INFINITY;
  const inside = (mediaFrame: number) => frameOfB(mediaFrame, follower);
  const seek = (time: number) => {
    if (Math.abs(element.currentTime - time) > 1e-4) element.currentTime = time;
  };
  const stop = () => !element.paused && element.pause();
  if (!lead.playing) {
    stop();
    // One seek at a time: Chrome may keep showing an older frame when a seek replaces one under way (quick
    // steps). B goes on from where it lands (its seeked event syncs again).
    if (element.seeking) return;
    // The frame A shows (its readout), which A's picture is put on when it pauses.
    return seek(timeOfMediaFrame(inside(lead.frame + follower.offset), follower.fps));
  }
  if (element.playbackRate !== lead.rate) element.playbackRate = lead.rate;
  // Where B should be, in B's frames, from A's own clock (fractional: the drift is measured within a frame).
  const position = leader.currentTime * lead.fps + follower.offset;
  if (position < 0 || position >= end + 1) {
    // Beyond B's ends: it waits there until A comes back within it.
    stop();
    if (!element.seeking) seek(timeOfMediaFrame(inside(Math.floor(position)), follower.fps));
    return;
  }
  // A stalled for data: B holds its frame until A moves again.
  if (leader.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) return stop();
  const drift = element.currentTime * follower.fps - position;
  if (!element.seeking && Math.abs(drift) >= 1) element.currentTime = position / follower.fps;
  if (element.paused)
    element.play().catch(() => {
      // A pause while B starts is not a failure; the next frame of A tries again.
    });
}

export function useFrameLock(
  a: RefObject<HTMLVideoElement | null>,
  b: RefObject<HTMLVideoElement | null>,
  lead: Lead,
  follower: Follower,
) {
  const latest = useRef({ lead, follower });
  latest.current = { lead, follower };
  const sync = useCallback(() => {
    const { lead, follower } = latest.current;
    if (a.current && b.current && follower.ready) follow(a.current, b.current, lead, follower);
  }, [a, b]);

  // On every frame A shows, and whenever a setting changes.
  const { frame, playing, rate, fps: leadFps } = lead;
  const { offset, ready, fps, last } = follower;
  useEffect(sync, [sync, frame, playing, rate, leadFps, offset, ready, fps, last]);

  // And when A stalls or goes on (its frame does not change then), and when a seek of B is done.
  useEffect(() => {
    const leader = a.current;
    const element = b.current;
    if (!leader || !element) return;
    const events = ['waiting', 'playing', 'canplay'];
    for (const name of events) leader.addEventListener(name, sync);
    element.addEventListener('seeked', sync);
    return () => {
      for (const name of events) leader.removeEventListener(name, sync);
      element.removeEventListener('seeked', sync);
    };
  }, [a, b, sync]);

  // Paused, B's picture is checked against its frame: after quick seeks Chromium sometimes leaves the picture of
  // an earlier seek on screen, though the element says it is on the new time. B is sought again then.
  useEffect(() => {
    const element = b.current as VideoWithFrames | null;
    if (!element?.requestVideoFrameCallback) return;
    let presented: number | null = null;
    const tries = { frame: -1, count: 0 };
    const verify = () => {
      const { lead, follower } = latest.current;
      if (lead.playing || element.seeking || presented === null || !follower.ready) return;
      const wanted = frameOfB(lead.frame + follower.offset, follower);
      if (mediaFrameAt(presented, follower.fps) === wanted) return;
      if (tries.frame !== wanted) Object.assign(tries, { frame: wanted, count: 0 });
      if (tries.count++ < RESEEKS) element.currentTime = timeOfMediaFrame(wanted, follower.fps);
    };
    let handle = 0;
    const onFrame = (_now: number, meta: { mediaTime: number }) => {
      presented = meta.mediaTime;
      verify();
      handle = element.requestVideoFrameCallback!(onFrame);
    };
    handle = element.requestVideoFrameCallback(onFrame);
    let check: ReturnType<typeof setTimeout> | undefined;
    const onSeeked = () => {
      clearTimeout(check);
      check = setTimeout(verify, PRESENTED_MS);
    };
    element.addEventListener('seeked', onSeeked);
    return () => {
      element.cancelVideoFrameCallback?.(handle);
      clearTimeout(check);
      element.removeEventListener('seeked', onSeeked);
    };
  }, [b]);

  // Leaving the comparison, or a new B, stops the one that followed.
  useEffect(() => {
    const element = b.current;
    return () => element?.pause();
  }, [b]);
}
