import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { drawAnnotations, type Box } from './frame-drawing.js';
import type { AnnotatedFrame, VersionReport } from './report-data.js';

// The report as a PDF (A4): a cover with what it covers, then per version its heading, thumbnail and status
// changes, its comments with their frames and timecodes, and its annotated frames, each drawn over its picture.

const FONTS = {
  regular: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
};
const MARGIN = 40;
const GREY = '#666666';

export interface ReportCover {
  title: string;
  project: string;
  by: string;
  at: Date;
}

/**
 * pdfkit embeds an opened image once, however often it is drawn (an eraser draws the picture again); its types do not
 * list openImage, and doc.image takes what it answers.
 */
const openImage = (doc: PDFKit.PDFDocument, still: Buffer) =>
  (doc as unknown as { openImage(src: Buffer): Buffer }).openImage(still);

const when = (value: Date | string | null) =>
  value ? new Date(value).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '';
/** Mentions ([label](user:name)) read as @label; the rest of a comment's markdown as it is. */
const plainText = (body: string) =>
  body.replace(/\[([^\]]+)\]\((user|task|version|folder|product):[^)]*\)/g, '@$1');

export async function renderReport(cover: ReportCover, versions: VersionReport[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: cover.title, Author: cover.by, Creator: 'Pipewright' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // DejaVu draws any language a comment is written in; without it, the PDF's own Helvetica.
  const unicode = existsSync(FONTS.regular) && existsSync(FONTS.bold);
  if (unicode) {
    doc.registerFont('body', FONTS.regular);
    doc.registerFont('heading', FONTS.bold);
  }
  const [body, heading] = unicode ? ['body', 'heading'] : ['Helvetica', 'Helvetica-Bold'];
  const width = doc.page.width - 2 * MARGIN;
  const room = (height: number) => {
    if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
  };
  const line = (text: string, size = 10, font = body, color = 'black') =>
    doc.font(font).fontSize(size).fillColor(color).text(text, MARGIN, doc.y, { width });

  line(cover.title, 20, heading);
  line(`${cover.project} · by ${cover.by} · ${when(cover.at)}`, 10, body, GREY);
  doc.moveDown();
  for (const [i, version] of versions.entries())
    line(`${i + 1}. ${version.title}${version.status ? ` (${version.status})` : ''}`, 11);

  for (const version of versions) {
    doc.addPage();
    line(version.title, 16, heading);
    line(
      [version.status, version.author, when(version.createdAt)].filter(Boolean).join(' · '),
      10,
      body,
      GREY,
    );
    doc.moveDown(0.5);
    if (version.thumbnail) {
      const top = doc.y;
      try {
        doc.image(version.thumbnail, MARGIN, top, { fit: [200, 113] });
        doc.y = top + 120;
      } catch {
        doc.y = top; // Not a picture pdfkit reads: the report goes on without it.
      }
    }
    line('Status changes', 12, heading);
    if (!version.statusChanges.length) line('None', 10, body, GREY);
    for (const change of version.statusChanges)
      line(`${when(change.at)}  ${change.by ?? 'server'}: ${change.from ?? 'unknown'} → ${change.to}`);
    doc.moveDown(0.5);
    line('Comments', 12, heading);
    if (!version.comments.length) line('None', 10, body, GREY);
    for (const comment of version.comments) {
      room(40);
      line(
        [comment.by ?? 'someone', when(comment.at), comment.frames].filter(Boolean).join(' · '),
        9,
        body,
        GREY,
      );
      line(plainText(comment.body), 10);
      doc.moveDown(0.3);
    }
    if (version.frames.length) {
      doc.moveDown(0.5);
      line('Annotated frames', 12, heading);
    }
    for (const frame of version.frames) drawFrame(doc, frame, width, room, line, body);
  }
  doc.end();
  return done;
}

function drawFrame(
  doc: PDFKit.PDFDocument,
  frame: AnnotatedFrame,
  width: number,
  room: (height: number) => void,
  line: (text: string, size?: number, font?: string, color?: string) => void,
  font: string,
) {
  const h = Math.min((width * frame.height) / frame.width, 320);
  const box: Box = { x: MARGIN, y: 0, w: (h * frame.width) / frame.height, h };
  room(h + 30);
  line(
    `${frame.reviewable} · frame ${frame.frame} · ${frame.timecode} · ${frame.annotations.length} ` +
      `object${frame.annotations.length === 1 ? '' : 's'}`,
    9,
    font,
    GREY,
  );
  box.y = doc.y + 2;
  let picture: Buffer | null = null;
  try {
    picture = frame.still ? openImage(doc, frame.still) : null;
  } catch {
    picture = null; // Not a picture pdfkit reads: a grey ground under the drawing.
  }
  const repaint = (on: PDFKit.PDFDocument, at: Box) => {
    if (picture) on.image(picture, at.x, at.y, { width: at.w, height: at.h });
    else on.rect(at.x, at.y, at.w, at.h).fill('#808080');
  };
  repaint(doc, box);
  drawAnnotations(doc, box, frame.annotations, repaint, font);
  doc.y = box.y + box.h + 12;
}
