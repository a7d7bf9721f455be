import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { ErrorBox, saveBlob, useClient } from '@pipewright/sdk/ui';
import type { AnnotatedMedia, Picture } from './annotations';
import { AnnotationFiles } from './AnnotationFiles';
import { AnnotationLayer, type Tool } from './AnnotationLayer';
import { renderFrame } from './frame-comment';
import { useSessionContext } from './session-context';
import { FrameComment } from './FrameComment';
import { useAnnotations } from './use-annotations';
import { useLiveDrawing } from './use-live-drawing';
import { usePictureBox } from './use-picture-box';

const TOOLS: [Tool, string][] = [
  ['view', 'View'],
  ['select', 'Select'],
  ['stroke', 'Pen'],
  ['rectangle', 'Rectangle'],
  ['ellipse', 'Ellipse'],
  ['line', 'Line'],
  ['arrow', 'Arrow'],
  ['text', 'Text'],
  ['eraser', 'Eraser'],
];

/**
 * Drawing on a reviewable (a video's frame, or an image): the frame's annotations over the picture (overlay, placed in the picture's box) and the
 * tools to draw, select and remove them (toolbar). What is drawn belongs to the frame on screen.
 */
export function useAnnotator(
  media: AnnotatedMedia,
  picture: RefObject<Picture | null>,
  frame: number,
  mediaFrame: number,
  /** Put another frame on screen (a video's); an image has only the one. */
  show: (frame: number) => Promise<void> = async () => undefined,
): { overlay: ReactNode; toolbar: ReactNode } {
  const client = useClient();
  const annotations = useAnnotations(client, media);
  // What others are drawing shows as it grows; what is drawn here shows to them so.
  const kept = useMemo(
    () => new Set([...annotations.byFrame.values()].flat().map((annotation) => annotation.id)),
    [annotations.byFrame],
  );
  const drawingNow = useLiveDrawing(client, media, kept);
  // Drawings shown or hidden: here, or for everyone by the driver of a synced review.
  const session = useSessionContext();
  const [shownHere, setShownHere] = useState(true);
  const shown = session?.state ? session.state.annotations : shownHere;
  const mayHide = !session?.state || session.driving;
  const setShown = (visible: boolean) =>
    session?.state ? void session.command({ command: 'annotations', visible }) : setShownHere(visible);
  const [tool, setTool] = useState<Tool>('view');
  const [color, setColor] = useState('#ff3b30');
  const [selected, setSelected] = useState<string | null>(null);
  const box = usePictureBox(picture);
  const svg = useRef<SVGSVGElement>(null);
  const onFrame = annotations.byFrame.get(frame) ?? [];
  const chosen = onFrame.some((annotation) => annotation.id === selected) ? selected : null;
  const { remove } = annotations;

  // Delete or Backspace removes the selected object (never while typing).
  useEffect(() => {
    if (!chosen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Delete' && event.key !== 'Backspace') return;
      if ((event.target as HTMLElement).closest('input, textarea, [contenteditable]')) return;
      event.preventDefault();
      void remove(chosen);
      setSelected(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [chosen, remove]);

  // A comment takes the frame's drawing with it, as AYON keeps one (two PNGs).
  const drawing = async () =>
    onFrame.length && picture.current && svg.current ? renderFrame(picture.current, svg.current) : null;

  // The frame with its drawing, as a file of the picture's own size (frame-1017.png); or every annotated frame so.
  const saveFrame = async () => {
    const pictures = await drawing();
    if (pictures) saveBlob(pictures.composite, `frame-${frame}.png`);
  };
  const [zipping, setZipping] = useState(false);
  const saveFrames = async () => {
    if (!picture.current) return;
    setZipping(true);
    try {
      // Loaded when first asked for: the ZIP writer and the SVG renderer weigh more than the rest of the screen.
      const { annotatedFramesZip } = await import('./frames-zip');
      const zip = await annotatedFramesZip(picture.current, annotations.byFrame, show, frame);
      saveBlob(zip, 'annotated-frames.zip');
    } finally {
      setZipping(false);
    }
  };

  const overlay = box.w > 0 && shown && (
    <div className="pwr-annotation-place" style={{ left: box.x, top: box.y }}>
      <AnnotationLayer
        frame={frame}
        annotations={onFrame}
        w={box.w}
        h={box.h}
        tool={tool}
        color={color}
        selected={chosen}
        onSelect={setSelected}
        onDraw={(annotation) => void annotations.add(annotation)}
        onChange={(annotation) => void annotations.change(annotation)}
        live={drawingNow.live}
        onDrawing={drawingNow.send}
        svg={svg}
      />
    </div>
  );
  const toolbar = (
    <div className="pwr-annotation-tools" role="toolbar" aria-label="Annotation tools">
      <button
        type="button"
        aria-pressed={!shown}
        disabled={!mayHide}
        title={mayHide ? undefined : 'The driver of the session shows or hides the drawings'}
        onClick={() => setShown(!shown)}
      >
        {shown ? 'Hide drawings' : 'Show drawings'}
      </button>
      {TOOLS.map(([name, label]) => (
        <button key={name} type="button" aria-pressed={tool === name} onClick={() => setTool(name)}>
          {label}
        </button>
      ))}
      <label className="pw-inline">
        Colour{' '}
        <input
          type="color"
          value={color}
          onChange={(event) => {
            setColor(event.target.value);
            // The selected object takes the colour too.
            const selectedOne = onFrame.find((annotation) => annotation.id === chosen);
            if (selectedOne) void annotations.change({ ...selectedOne, color: event.target.value });
          }}
        />
      </label>
      <button
        type="button"
        disabled={!chosen}
        onClick={() => {
          if (chosen) void remove(chosen);
          setSelected(null);
        }}
      >
        Delete selected
      </button>
      <button type="button" disabled={onFrame.length === 0} onClick={() => void saveFrame()}>
        Save frame as PNG
      </button>
      <button
        type="button"
        disabled={annotations.byFrame.size === 0 || zipping}
        onClick={() => void saveFrames()}
      >
        {zipping ? 'Saving the frames…' : 'Save annotated frames (ZIP)'}
      </button>
      <AnnotationFiles media={media} />
      <span className="muted" aria-label="Annotations on this frame">
        {onFrame.length ? `${onFrame.length} on this frame` : 'Nothing drawn on this frame'}
      </span>
      <ErrorBox error={annotations.error} />
      <FrameComment media={media} frame={frame} mediaFrame={mediaFrame} drawing={drawing} />
    </div>
  );
  return { overlay, toolbar };
}
