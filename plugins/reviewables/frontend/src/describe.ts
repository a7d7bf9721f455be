import type { Availability, Reviewable } from './api';

// How a reviewable is named and described to people: its label or file name, its codec and size in words, and
// its availability as a badge.

export const titleOf = (reviewable: Reviewable) => reviewable.label || reviewable.filename;

/** Whether a reviewable plays (a video, MXF included) rather than shows as one picture. */
export const isVideo = (r: Reviewable) =>
  r.mediaInfo ? r.mediaInfo.duration > 0 : /^(video\/|application\/mxf)/i.test(r.mimetype);

const CODEC_NAMES: Record<string, string> = {
  h264: 'H.264',
  hevc: 'HEVC (H.265)',
  vp9: 'VP9',
  av1: 'AV1',
  prores: 'ProRes',
  dnxhd: 'DNxHD/DNxHR',
  mpeg4: 'MPEG-4 Part 2',
  mpeg2video: 'MPEG-2',
  mjpeg: 'JPEG',
  png: 'PNG',
  exr: 'OpenEXR',
  dpx: 'DPX',
  tiff: 'TIFF',
  webp: 'WebP',
  gif: 'GIF',
  bmp: 'BMP',
};

const CONTAINER_BY_TYPE: [RegExp, string][] = [
  [/^video\/quicktime/i, 'QuickTime (.mov)'],
  [/^video\/mp4/i, 'MP4'],
  [/^video\/webm/i, 'WebM'],
  [/^video\/x-matroska/i, 'Matroska'],
  [/^video\/x-msvideo/i, 'AVI'],
  [/^application\/mxf/i, 'MXF'],
];

/** "ProRes in QuickTime (.mov), 1920×1080, yuv422p10le, 24 fps, 2.0 s" — as much as the media info tells. */
export function describeMedia(reviewable: Reviewable): string {
  const info = reviewable.mediaInfo;
  if (!info) return `${reviewable.filename} (${reviewable.mimetype})`;
  const codec = info.codec ? (CODEC_NAMES[info.codec] ?? info.codec) : 'an unknown codec';
  const container = CONTAINER_BY_TYPE.find(([pattern]) => pattern.test(reviewable.mimetype))?.[1];
  const parts = [
    info.duration > 0 && container ? `${codec} in ${container}` : codec,
    info.width && info.height ? `${info.width}×${info.height}` : null,
    info.pixelFormat,
    info.duration > 0 && info.frameRate ? `${Math.round(info.frameRate * 1000) / 1000} fps` : null,
    info.duration > 0 ? `${info.duration.toFixed(1)} s` : null,
  ];
  return parts.filter(Boolean).join(', ') + '.';
}

/** A short line for the strip: the length of a video, or the size of an image. */
export function shortFacts(reviewable: Reviewable): string {
  const info = reviewable.mediaInfo;
  if (!info) return reviewable.mimetype;
  if (info.duration > 0) return `${info.duration.toFixed(1)} s${info.codec ? ` · ${info.codec}` : ''}`;
  return info.width && info.height ? `${info.width}×${info.height}` : (info.codec ?? '');
}

export const AVAILABILITY: Record<Availability, { text: string; tone: string; hint: string }> = {
  ready: { text: 'Ready', tone: 'good', hint: 'Plays in the browser as uploaded' },
  conversionRecommended: {
    text: 'Conversion recommended',
    tone: 'warn',
    hint: 'Plays here, but not in every browser; a conversion to 8-bit 4:2:0 H.264 plays everywhere',
  },
  conversionRequired: {
    text: 'Needs conversion',
    tone: 'bad',
    hint: 'Browsers cannot play it as uploaded; a still frame is shown instead',
  },
  unknown: {
    text: 'Unknown',
    tone: 'off',
    hint: 'The server could not read its media info',
  },
};
