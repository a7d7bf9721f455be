import type { KeyboardEvent, PointerEvent } from 'react';

// The wipe's divider: A before it, B after. It is dragged with the mouse (or a finger), or moved with the arrow
// keys once focused (Shift: ten times as far, Home and End: to the edges); while it has the focus the arrows are
// its own, not the player's frame steps.

const STEP = 0.01;

/** Where the picture sits in its element (object-fit: contain), in the element's pixels. */
export interface PictureRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function WipeDivider({
  at,
  direction,
  rect,
  onMove,
}: {
  /** 0 to 1 across (h) or down (v) the picture. */
  at: number;
  direction: 'h' | 'v';
  /** The picture's place in the box the divider sits in. */
  rect: PictureRect;
  onMove(at: number): void;
}) {
  const across = direction === 'h';
  const clamp = (value: number) => Math.min(1, Math.max(0, value));

  const follow = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.parentElement?.getBoundingClientRect();
    if (!box || rect.w <= 0 || rect.h <= 0) return;
    onMove(
      clamp(
        across ? (event.clientX - box.left - rect.x) / rect.w : (event.clientY - box.top - rect.y) / rect.h,
      ),
    );
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.shiftKey ? STEP * 10 : STEP;
    const keys: Record<string, number> = across
      ? { ArrowLeft: at - step, ArrowRight: at + step, Home: 0, End: 1 }
      : { ArrowUp: at - step, ArrowDown: at + step, Home: 0, End: 1 };
    const next = keys[event.key];
    if (next === undefined) return;
    // Taken from the player: its keys step frames.
    event.preventDefault();
    onMove(clamp(Math.round(next * 1000) / 1000));
  };

  const place = across
    ? { left: rect.x + at * rect.w, top: rect.y, height: rect.h }
    : { top: rect.y + at * rect.h, left: rect.x, width: rect.w };
  return (
    <div
      className={`pwr-wipe pwr-wipe-${direction}`}
      style={place}
      role="slider"
      tabIndex={0}
      aria-label="Wipe divider"
      aria-orientation={across ? 'horizontal' : 'vertical'}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(at * 100)}
      aria-valuetext={`${Math.round(at * 100)} %: A ${across ? 'left' : 'above'}, B ${across ? 'right' : 'below'}`}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        event.currentTarget.focus({ preventScroll: true });
        // No text selection, no native drag of the picture under it.
        event.preventDefault();
      }}
      onPointerMove={(event) => {
        if (event.currentTarget.hasPointerCapture(event.pointerId)) follow(event);
      }}
      onKeyDown={onKeyDown}
    />
  );
}
