import { useEffect, useRef, useState, type PointerEvent, type RefObject } from 'react';
import { isTyping, type SpaceHold } from './player-keys';
import type { ViewControl } from './use-view';
import type { View } from './view-math';

// Pan and zoom by hand: the wheel (or a trackpad's pinch, which browsers send as a wheel with Ctrl) zooms about the
// pointer; a drag with the middle button, or with Space held, pans; so does a plain drag when no drawing tool takes
// it (the drawing layer keeps its own) and the picture is zoomed in. Keys: + and - zoom, 0 or F fits, 1 is 100 %.

/** Zoom per pixel of wheel: a mouse's notch (100 px) zooms by about a fifth; a pinch sends small steps. */
const WHEEL = 0.002;
const PINCH = 0.01;
const STEP = 2;

/** The pointer from the centre of the viewport under it (side B's, beside A, has its own), in CSS pixels. */
function fromCentre(
  event: { clientX: number; clientY: number; target: EventTarget | null },
  frame: HTMLElement,
) {
  const under = event.target instanceof Element ? event.target.closest('.pwr-viewport') : null;
  const port = under ?? frame.querySelector('.pwr-viewport') ?? frame;
  const box = port.getBoundingClientRect();
  return [event.clientX - box.left - box.width / 2, event.clientY - box.top - box.height / 2] as [
    number,
    number,
  ];
}

/**
 * The handlers for the element holding the picture's layers (`frame`), and whether it is being panned (for the
 * cursor). `space` is the player's Space, held or not.
 */
export function useViewGestures(
  frame: RefObject<HTMLElement | null>,
  control: ViewControl,
  space: RefObject<SpaceHold>,
) {
  const latest = useRef(control);
  latest.current = control;
  const drag = useRef<{ pointer: number; x: number; y: number; from: View } | null>(null);
  const [panning, setPanning] = useState(false);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      const now = latest.current;
      if (now.locked || now.fitted.w <= 0) return;
      event.preventDefault();
      const pixels = event.deltaY * (event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1);
      now.zoomBy(Math.exp(-pixels * (event.ctrlKey ? PINCH : WHEEL)), fromCentre(event, element));
    };
    // Not passive: the page must not scroll while the picture zooms.
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [frame]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target))
        return;
      const now = latest.current;
      const zoomIn = () => now.zoomBy(STEP);
      const zoomOut = () => now.zoomBy(1 / STEP);
      const keys: Record<string, () => void> = {
        '+': zoomIn,
        '=': zoomIn,
        '-': zoomOut,
        _: zoomOut,
        '0': now.fit,
        f: now.fit,
        '1': now.actualSize,
      };
      const action = keys[event.key.toLowerCase()];
      if (!action || now.locked) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const start = (event: PointerEvent<HTMLElement>) => {
    // Taken from what is under the pointer: no stroke is drawn.
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = {
      pointer: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      from: latest.current.view,
    };
    if (space.current?.down) space.current.used = true;
    setPanning(true);
  };
  const end = () => {
    drag.current = null;
    setPanning(false);
  };
  return {
    panning,
    handlers: {
      // Before the drawing layer hears it: the middle button, or any with Space held.
      onPointerDownCapture: (event: PointerEvent<HTMLElement>) => {
        if (control.locked || !(event.button === 1 || (event.button === 0 && space.current?.down))) return;
        // No scrolling by the middle button, no text selected.
        event.preventDefault();
        start(event);
      },
      // A plain drag no drawing tool took (nor the wipe's divider, nor a button).
      onPointerDown: (event: PointerEvent<HTMLElement>) => {
        const target = event.target instanceof Element ? event.target : null;
        if (control.locked || event.button !== 0 || control.view.zoom <= 1) return;
        if (target?.closest('[role="slider"], button, input, a')) return;
        start(event);
      },
      onPointerMove: (event: PointerEvent<HTMLElement>) => {
        const now = drag.current;
        if (now?.pointer !== event.pointerId) return;
        control.panFrom(now.from, event.clientX - now.x, event.clientY - now.y);
      },
      onPointerUp: end,
      onPointerCancel: end,
    },
  };
}
