import type { DrawnAnnotation } from '@pipewright/plugin-annotations/api';

// A frame's annotations drawn in a PDF over the frame's picture, as the review player draws them: positions
// normalised by the picture's height (origin at the centre, y up), strokes segment by segment as wide as their ends,
// an arrow's head a fortieth of the height long (at least four line widths), and an eraser showing the picture again
// through what was drawn before it.

/** A box of the page the picture fills. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Puts the picture (or its stand-in) back inside the current clip. */
export type Repaint = (doc: PDFKit.PDFDocument, box: Box) => void;

type Point = readonly number[];

export function drawAnnotations(
  doc: PDFKit.PDFDocument,
  box: Box,
  annotations: DrawnAnnotation[],
  repaint: Repaint,
  font: string,
): void {
  const at = ([x, y]: Point): [number, number] => [
    box.x + box.w / 2 + x! * box.h,
    box.y + box.h / 2 - y! * box.h,
  ];
  doc.save();
  doc.rect(box.x, box.y, box.w, box.h).clip();
  for (const { shape, color } of annotations) {
    if ('points' in shape) {
      const pieces = shape.points.map((point, i) => [shape.points[i - 1] ?? point, point] as const);
      for (const [from, to] of pieces) {
        const width = ((from[2]! + to[2]!) / 2) * box.h;
        if (shape.kind === 'eraser') {
          // The picture again, through this piece of the eraser's path: its round end, and the band to it.
          for (const area of eraserAreas(at(from), at(to), width)) {
            doc.save();
            area(doc).clip();
            repaint(doc, box);
            doc.restore();
          }
        } else if (from === to) {
          doc.circle(...at(to), width / 2).fill(color);
        } else {
          doc
            .moveTo(...at(from))
            .lineTo(...at(to))
            .lineWidth(width)
            .lineCap('round')
            .stroke(color);
        }
      }
      continue;
    }
    if (shape.kind === 'text') {
      const [x, y] = at(shape.at);
      doc
        .font(font)
        .fontSize(shape.size * box.h)
        .fillColor(color);
      doc.text(shape.text.replace(/\s+/g, ' '), x, y, { lineBreak: false, baseline: 'alphabetic' });
      continue;
    }
    const [[x1, y1], [x2, y2]] = [at(shape.from), at(shape.to)];
    doc
      .lineWidth(shape.width * box.h)
      .lineCap('round')
      .lineJoin('miter');
    if (shape.kind === 'rectangle')
      doc.rect(Math.min(x1, x2), Math.min(y1, y2), Math.abs(x2 - x1), Math.abs(y2 - y1));
    else if (shape.kind === 'ellipse')
      doc.ellipse((x1 + x2) / 2, (y1 + y2) / 2, Math.abs(x2 - x1) / 2, Math.abs(y2 - y1) / 2);
    else doc.moveTo(x1, y1).lineTo(x2, y2);
    doc.stroke(color);
    if (shape.kind === 'arrow') {
      const angle = Math.atan2(y2 - y1, x2 - x1);
      const head = Math.max(box.h / 40, 4 * shape.width * box.h);
      const wing = (side: number): [number, number] => [
        x2 - head * Math.cos(angle + side * 0.45),
        y2 - head * Math.sin(angle + side * 0.45),
      ];
      doc.polygon([x2, y2], wing(1), wing(-1)).fill(color);
    }
  }
  doc.restore();
}

/** What a round-capped line of this width covers from a to b: a disc at b, and the band from a (none for a dot). */
function eraserAreas(a: [number, number], b: [number, number], width: number) {
  const r = Math.max(width / 2, 0.01);
  const disc = (doc: PDFKit.PDFDocument) => doc.circle(b[0], b[1], r);
  if (a[0] === b[0] && a[1] === b[1]) return [disc];
  const angle = Math.atan2(b[1] - a[1], b[0] - a[0]);
  const [nx, ny] = [-Math.sin(angle) * r, Math.cos(angle) * r];
  const band = (doc: PDFKit.PDFDocument) =>
    doc.polygon(
      [a[0] + nx, a[1] + ny],
      [b[0] + nx, b[1] + ny],
      [b[0] - nx, b[1] - ny],
      [a[0] - nx, a[1] - ny],
    );
  return [disc, band];
}
