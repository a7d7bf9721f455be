import { useEffect, useRef, useState } from 'react';
import { annotationDrawing } from '@pipewright/sdk/ui';
import type { GuestAnnotation, GuestReviewable } from './guest-api';

// The guest's player: the reviewable in a <video> (or an image), play and pause, a frame back and forth, the frame
// number as the studio's player numbers it, and what was drawn on that frame over the picture, read only.

export function GuestPlayer({
  reviewable,
  src,
  annotations,
  stopped,
  onFrame,
}: {
  reviewable: GuestReviewable;
  src: string;
  annotations: GuestAnnotation[];
  /** The link ended: the picture goes and nothing plays any more. */
  stopped: boolean;
  onFrame(frame: number): void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const isImage = reviewable.mimetype.startsWith('image/');
  const w = reviewable.mediaInfo?.width || 1920;
  const h = reviewable.mediaInfo?.height || 1080;
  const fps = reviewable.fps || 24;
  const last = Math.max(0, reviewable.frameCount - 1);
  const frame = reviewable.firstFrame + index;

  useEffect(() => onFrame(frame), [frame, onFrame]);

  // While playing, the frame shown follows the clock; paused, it is where the last seek put it.
  useEffect(() => {
    if (!playing) return;
    let running = true;
    const follow = () => {
      const at = video.current;
      if (!running || !at) return;
      setIndex(Math.min(last, Math.floor(at.currentTime * fps + 1e-3)));
      requestAnimationFrame(follow);
    };
    requestAnimationFrame(follow);
    return () => void (running = false);
  }, [playing, fps, last]);

  useEffect(() => {
    const at = video.current;
    if (!stopped || !at) return;
    at.pause();
    at.removeAttribute('src');
    at.load();
  }, [stopped]);

  const seek = (to: number) => {
    const at = video.current;
    if (!at) return;
    at.pause();
    const next = Math.max(0, Math.min(last, to));
    // The middle of the frame, so rounding never lands on its neighbour.
    at.currentTime = (next + 0.5) / fps;
    setIndex(next);
  };

  const toggle = () => {
    const at = video.current;
    if (!at) return;
    if (at.paused) void at.play().catch(() => undefined);
    else {
      at.pause();
      seek(Math.floor(at.currentTime * fps + 1e-3));
    }
  };

  const shown = annotations.filter((a) => a.frame === frame);
  return (
    <div className="pw-guest-player">
      <div className="pw-guest-stage" style={{ aspectRatio: `${w} / ${h}` }}>
        {stopped ? null : isImage ? (
          <img src={src} alt={reviewable.label ?? reviewable.filename} />
        ) : (
          <video
            ref={video}
            src={src}
            preload="auto"
            playsInline
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
            onEnded={() => setPlaying(false)}
            aria-label="Review media"
          />
        )}
        <svg viewBox={`0 0 ${w} ${h}`} aria-label="Annotations" role="img">
          {annotationDrawing(shown, w, h)}
        </svg>
      </div>
      {!isImage && (
        <div className="pw-guest-controls">
          <button
            type="button"
            onClick={() => seek(index - 1)}
            disabled={stopped}
            aria-label="Previous frame"
          >
            ◀
          </button>
          <button type="button" onClick={toggle} disabled={stopped}>
            {playing ? 'Pause' : 'Play'}
          </button>
          <button type="button" onClick={() => seek(index + 1)} disabled={stopped} aria-label="Next frame">
            ▶
          </button>
          <span className="pw-guest-frame" aria-label="Frame">
            Frame {frame}
          </span>
          <span className="muted">
            {reviewable.firstFrame}–{reviewable.firstFrame + last}
          </span>
        </div>
      )}
    </div>
  );
}
