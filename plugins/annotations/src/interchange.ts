import { createHash } from 'node:crypto';
import type { Problem } from '@pipewright/sdk';
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

/** An object read from a file, with what the import needs to place it and to name it in a problem. */
export interface ImportedObject extends AnnotationInput {
  /** The id to use when the file gives none, or its own is taken: one the same file always gives the same. */
  fallbackId?: string;
  /** A pen that may be the outline of one of our figures: an id naming a figure here keeps that figure as it is. */
  outline?: boolean;
  /** Where it is in the file, and how a problem with it is introduced (else its index and its frame). */
  loc?: (string | number)[];
  label?: string;
}

/** What a reader made of a file: the objects to draw, the parts it left out, what it could not read. */
export interface FileRead {
  annotations: ImportedObject[];
  /** Parts of the file left out, by name: of a kind we do not draw, or not shown where it comes from. */
  skipped: string[];
  problems: Problem[];
}

/** A finite number, else null. */
export const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

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

/** A name-based UUID (version 5, RFC 9562) in a namespace that is one of our ids: the same name, the same id. */
export function nameBasedId(namespace: string, name: string): string {
  const hash = createHash('sha1').update(Buffer.from(namespace, 'hex')).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  return hash.subarray(0, 16).toString('hex');
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
