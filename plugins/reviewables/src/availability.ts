import type { MediaInfo } from '@pipewright/plugin-files/api';

/** Whether a browser can show a reviewable as uploaded (AYON's values). */
export type Availability = 'unknown' | 'conversionRequired' | 'conversionRecommended' | 'ready';

export const AVAILABILITIES: Availability[] = [
  'unknown',
  'conversionRequired',
  'conversionRecommended',
  'ready',
];

/** Still images every current browser draws in an <img>. */
const BROWSER_IMAGE_CODECS = ['png', 'mjpeg', 'webp', 'gif', 'bmp'];
/** Video codecs Chrome, Firefox, Safari and Edge all decode in a <video>. */
const BROWSER_VIDEO_CODECS = ['h264', 'vp9', 'av1'];
/**
 * Major brands of MP4 files (ISO base media). QuickTime's "qt  " is deliberately absent: browsers play some .mov
 * files and not others, so a .mov is converted rather than hoped for.
 */
const MP4_BRANDS = ['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'dash', 'M4V'];
/** 8-bit 4:2:0, the one pixel layout every browser decodes (yuvj420p is its full-range twin, used by JPEG). */
const BROWSER_PIXEL_FORMATS = ['yuv420p', 'yuvj420p'];

/** The container, as far as the media info and the declared type tell it. */
function container(info: MediaInfo, mimetype: string): 'mp4' | 'webm' | 'other' {
  const brand = info.majorBrand?.trim();
  if (brand) return MP4_BRANDS.includes(brand) ? 'mp4' : 'other';
  // Matroska files (WebM among them) carry no major brand, and the probe does not name the container: a file
  // declared as WebM that has none is taken at its word; the codec check below still has to pass.
  return /^video\/webm\b/i.test(mimetype.trim()) ? 'webm' : 'other';
}

const even = (value: number | null) => value !== null && value % 2 === 0;

/**
 * What a browser can do with a reviewable, decided from ffprobe's media info (the rule this server uses):
 * - unknown: no media info (ffprobe was not available) or no picture stream;
 * - still images (duration 0): ready when PNG, JPEG, WebP, GIF or BMP, else conversionRequired (TIFF, EXR, DPX);
 * - videos: conversionRequired unless the codec is H.264, VP9 or AV1 in an MP4 (ISO brand) or WebM container;
 *   then conversionRecommended unless the pixels are 8-bit 4:2:0 (yuv420p) with even width and height, which is
 *   what every browser decodes; else ready.
 * AYON also recommends conversion of videos with B-frames (for frame-exact scrubbing); every browser plays them,
 * so they count as ready here.
 */
export function availabilityOf(info: MediaInfo | null, mimetype: string): Availability {
  if (!info || info.videoTrackIndex === null) return 'unknown';
  const codec = info.codec ?? '';
  if (!info.duration) return BROWSER_IMAGE_CODECS.includes(codec) ? 'ready' : 'conversionRequired';
  if (container(info, mimetype) === 'other' || !BROWSER_VIDEO_CODECS.includes(codec))
    return 'conversionRequired';
  if (!BROWSER_PIXEL_FORMATS.includes(info.pixelFormat ?? '') || !even(info.width) || !even(info.height))
    return 'conversionRecommended';
  return 'ready';
}
