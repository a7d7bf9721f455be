import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { GuestAnnotation, GuestReviewable } from './guest-api';

// The guest's player: the reviewable in a <video> (or an image), play and pause, a frame back and forth, the frame
// number as the studio's player numbers it, and what was drawn on that frame over the picture, read only.

/** A point of the annotations' space (height-normalised, origin at the centre, y up) in pixels of a w by h picture. */
const toPixels = ([x, y]: number[], w: number, h: number) => [w / 2 + x! * h, h / 2 - y! * h] as const;

/** One drawn object, simply: strokes as polylines, figures by their ends, texts where they stand. */
function Shape({ annotation, w, h }: { annotation: GuestAnnotation; w: number; h: number }): ReactNode {
  const { shape, color } = annotation;
  if (Array.isArray(shape.points)) {
    const points = shape.points as number[][];
    const width = (points.reduce((sum, p) => sum + (p[2] ?? 0.004), 0) / Math.max(1, points.length)) * h;
    const line = points.map((p) => toPixels(p, w, h).join(',')).join(' ');
    const erasing = shape.kind === 'eraser';
    return erasing ? null : (
      <polyline points={line} stroke={color} strokeWidth={width} fill="none" strokeLinecap="round" />
    );
  }
  if (Array.isArray(shape.at)) {
    const [x, y] = toPixels(shape.at, w, h);
    return (
      <text x={x} y={y} fill={color} fontSize={(shape.size ?? 0.03) * h} fontFamily="sans-serif">
        {String(shape.text ?? '')}
      </text>
    );
  }
  if (!Array.isArray(shape.from) || !Array.isArray(shape.to)) return null;
  const [x1, y1] = toPixels(shape.from, w, h);
  const [x2, y2] = toPixels(shape.to, w, h);
  const stroke = { stroke: color, strokeWidth: (shape.width ?? 0.004) * h, fill: 'none' };
  if (shape.kind === 'rectangle')
    return (
      <rect
        x={Math.min(x1, x2)}
        y={Math.min(y1, y2)}
        width={Math.abs(x2 - x1)}
        height={Math.abs(y2 - y1)}
        {...stroke}
      />
    );
  if (shape.kind === 'ellipse')
    return (
      <ellipse
        cx={(x1 + x2) / 2}
        cy={(y1 + y2) / 2}
        rx={Math.abs(x2 - x1) / 2}
        ry={Math.abs(y2 - y1) / 2}
        {...stroke}
      />
    );
  return <line x1={x1} y1={y1} x2={x2} y2={y2} {...stroke} strokeLinecap="round" />;
}

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
          {shown.map((annotation) => (
            <g key={annotation.id} data-annotation-id={annotation.id}>
              <Shape annotation={annotation} w={w} h={h} />
            </g>
          ))}
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
