import type { ShapeValue } from './schemas.js';

/** An object to draw, as the API takes it (an id of its own keeps it across an export and an import). */
export interface AnnotationInput {
  id?: string;
  frame: number;
  color: string;
  shape: ShapeValue;
}

/** An object as it is kept. */
export type Drawn = Required<AnnotationInput>;

const HEX_ID = /^[0-9a-f]{32}$/;

/** Our ids as the interchange formats write them: UUIDs with dashes. */
export const dashedId = (id: string) =>
  HEX_ID.test(id)
    ? `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`
    : id;

/** An id read from a file, when it is one of ours (a UUID, dashed or not); undefined for any other. */
export function plainId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const id = value.replaceAll('-', '').toLowerCase();
  return HEX_ID.test(id) ? id : undefined;
}

/** '#rrggbb' as the formats' [r, g, b, a] floats. */
export const rgbaOf = (color: string): number[] => [
  ...[1, 3, 5].map((at) => Math.round((parseInt(color.slice(at, at + 2), 16) / 255) * 1e4) / 1e4),
  1,
];

/** [r, g, b, a] floats as '#rrggbb' (the alpha is not kept); null when it is not a colour. */
export function colorOf(rgba: unknown): string | null {
  if (!Array.isArray(rgba) || rgba.length < 3) return null;
  const channels = rgba.slice(0, 3);
  if (!channels.every((c) => typeof c === 'number' && Number.isFinite(c))) return null;
  return `#${channels
    .map((c) =>
      Math.round(Math.min(1, Math.max(0, c)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
