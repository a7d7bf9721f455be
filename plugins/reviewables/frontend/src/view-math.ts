import type { SessionState } from './review-session';

// Pan and zoom of the picture, as the review session keeps it: zoom 1 fits the picture in its frame; x and y are
// where the picture's centre sits from the frame's centre, in fractions of the picture's size as shown. Being
// fractions, one view shows the same part of the picture on screens of any size.

export type View = SessionState['view'];

export const FIT: View = { zoom: 1, x: 0, y: 0 };
/** The closest zoom: 32 times the fitted picture (the session's limit too). */
export const MOST_ZOOM = 32;
/** The session's lowest zoom; a small picture zooms out to one picture pixel a screen pixel, not further. */
const LEAST_ZOOM = 0.1;

/** The picture as fitted in its frame (CSS pixels) and its own size (its pixels). */
export interface Fitted {
  w: number;
  h: number;
  natural: { w: number; h: number };
}

/**
 * The zoom at which a picture pixel is a screen pixel: device pixels, as review tools count them, so 100 % shows the
 * picture unresampled on a high-density screen too.
 */
export const oneToOne = (fitted: Fitted, pixelRatio: number) =>
  fitted.w > 0 ? fitted.natural.w / (fitted.w * pixelRatio) : 1;

/** The zoom as people read it: 100 % is one picture pixel a screen pixel. */
export const percentOf = (view: View, fitted: Fitted, pixelRatio: number) =>
  Math.round((100 * view.zoom) / oneToOne(fitted, pixelRatio));

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const rounded = (value: number) => Math.round(value * 10_000) / 10_000 + 0;

/**
 * A view within bounds: zoom from fit (or 100 % for a picture smaller than its frame) to 32 times fit, and a pan
 * that keeps some of the picture under the frame's centre, so it never leaves the frame.
 */
export function bounded(view: View, fitted: Fitted, pixelRatio: number): View {
  const least = clamp(Math.min(1, oneToOne(fitted, pixelRatio)), LEAST_ZOOM, 1);
  return {
    zoom: rounded(clamp(view.zoom, least, MOST_ZOOM)),
    x: rounded(clamp(view.x, -0.5, 0.5)),
    y: rounded(clamp(view.y, -0.5, 0.5)),
  };
}

/** Where the picture's centre is moved to, in CSS pixels. */
const shift = (view: View, fitted: Fitted) => [view.x * fitted.w * view.zoom, view.y * fitted.h * view.zoom];

/** The CSS transform of every layer of the picture (origin at their common centre); none when fitted. */
export function transformOf(view: View, fitted: Fitted): string | undefined {
  if (view.zoom === 1 && view.x === 0 && view.y === 0) return undefined;
  const [tx, ty] = shift(view, fitted);
  return `translate(${tx}px, ${ty}px) scale(${view.zoom})`;
}

/** Zoomed by a factor about a point of the frame (CSS pixels from its centre): the picture there stays there. */
export function zoomedAt(
  view: View,
  factor: number,
  at: [number, number],
  fitted: Fitted,
  pixelRatio: number,
) {
  if (fitted.w <= 0 || fitted.h <= 0) return view;
  const [tx, ty] = shift(view, fitted);
  // The point of the fitted picture under `at`, then the zoom that keeps it there.
  const [px, py] = [(at[0] - tx) / view.zoom, (at[1] - ty) / view.zoom];
  const zoom = bounded({ ...view, zoom: view.zoom * factor }, fitted, pixelRatio).zoom;
  const next = {
    zoom,
    x: (at[0] - px * zoom) / (fitted.w * zoom),
    y: (at[1] - py * zoom) / (fitted.h * zoom),
  };
  return bounded(next, fitted, pixelRatio);
}

/** Panned by dx, dy CSS pixels. */
export function pannedBy(view: View, dx: number, dy: number, fitted: Fitted, pixelRatio: number) {
  if (fitted.w <= 0 || fitted.h <= 0) return view;
  const x = view.x + dx / (fitted.w * view.zoom);
  const y = view.y + dy / (fitted.h * view.zoom);
  return bounded({ ...view, x, y }, fitted, pixelRatio);
}

export const sameView = (a: View, b: View) => a.zoom === b.zoom && a.x === b.x && a.y === b.y;
