import { useState, type DragEvent } from 'react';

/** Files dragged from the desktop onto an area: whether one is over it, the last one dropped, and the area's handlers. */
export interface FileDrop {
  dragging: boolean;
  /** A new object for every drop, so the same file dropped twice is taken twice. */
  dropped: { file: File } | null;
  /** Spread on the area that takes the files. */
  handlers: {
    onDragOver(event: DragEvent): void;
    onDragLeave(event: DragEvent): void;
    onDrop(event: DragEvent): void;
  };
}

// Only drags that carry files count: the strip's own cards are dragged over the same area.
const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/** Take files dropped on an area; anything else dragged over it is left to the area's own children. */
export function useFileDrop(): FileDrop {
  const [dragging, setDragging] = useState(false);
  const [dropped, setDropped] = useState<{ file: File } | null>(null);
  const handlers = {
    onDragOver: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      const file = event.dataTransfer.files[0];
      if (file) setDropped({ file });
    },
  };
  return { dragging, dropped, handlers };
}
