import { zipSync } from 'fflate';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { annotationDrawing } from '@pipewright/sdk/ui';
import type { Annotation, Picture } from './annotations';
import { naturalSize } from './annotations';

// Every annotated frame of a reviewable as PNG files in one ZIP (frame-1017.png, ...): the picture of each frame
// with its drawing over it, at the picture's own size. The player shows each frame in turn to draw it.

/** A frame's drawing alone, as the SVG markup of a w by h picture. */
const markup = (annotations: Annotation[], w: number, h: number) =>
  renderToStaticMarkup(
    createElement(
      'svg',
      { xmlns: 'http://www.w3.org/2000/svg', width: w, height: h, viewBox: `0 0 ${w} ${h}` },
      annotationDrawing(annotations, w, h, null),
    ),
  );

async function composite(picture: Picture, annotations: Annotation[]): Promise<Uint8Array> {
  const { w, h } = naturalSize(picture);
  const url = URL.createObjectURL(new Blob([markup(annotations, w, h)], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const context = canvas.getContext('2d')!;
    context.drawImage(picture, 0, 0, w, h);
    context.drawImage(image, 0, 0, w, h);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('A frame could not be drawn');
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * The ZIP of the annotated frames: show(frame) puts each frame on screen (and resolves once it is shown), so its
 * picture can be drawn; the frame on screen before is shown again at the end.
 */
export async function annotatedFramesZip(
  picture: Picture,
  byFrame: Map<number, Annotation[]>,
  show: (frame: number) => Promise<void>,
  current: number,
): Promise<Blob> {
  const files: Record<string, [Uint8Array, { level: 0 }]> = {};
  try {
    for (const frame of [...byFrame.keys()].sort((a, b) => a - b)) {
      await show(frame);
      files[`frame-${frame}.png`] = [await composite(picture, byFrame.get(frame)!), { level: 0 }];
    }
  } finally {
    await show(current);
  }
  return new Blob([zipSync(files) as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
}
