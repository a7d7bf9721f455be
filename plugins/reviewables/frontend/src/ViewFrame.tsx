import { useRef, type ReactNode, type RefObject } from 'react';
import type { SpaceHold } from './player-keys';
import type { ViewControl } from './use-view';
import { useViewGestures } from './use-view-gestures';

// The picture's box, where it is panned and zoomed: the picture and the drawings over it in a viewport that clips
// them, each with the view's transform (about their common centre), so a drawing stays on its place of the picture.
// The drawings' layer lies over whatever else the box holds (side B of a comparison, given as children).

export function ViewFrame({
  view,
  space,
  className = '',
  picture,
  drawings,
  children,
}: {
  view: ViewControl;
  /** The player's Space, which lets a drag pan. */
  space: RefObject<SpaceHold>;
  className?: string;
  /** The picture (a video or an image), filling the viewport, styled with the view's transform. */
  picture: ReactNode;
  drawings: ReactNode;
  children?: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const gestures = useViewGestures(box, view, space);
  return (
    <div
      ref={box}
      className={`pwr-picture-box ${className}${gestures.panning ? ' pwr-panning' : ''}`}
      {...gestures.handlers}
    >
      <div className="pwr-viewport">
        {picture}
        <div className="pwr-view-layer" style={{ transform: view.transform }}>
          {drawings}
        </div>
      </div>
      {children}
    </div>
  );
}
