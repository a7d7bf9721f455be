import { describe, expect, it } from '@jest/globals';
import { Utf8Writer } from '../src/utf8-writer.js';

describe('Utf8Writer', () => {
  it('grows past its first guess and keeps multi-byte text whole', () => {
    const writer = new Utf8Writer(0);
    const pieces = Array.from({ length: 500 }, (_, i) => `{"label":"Séquence ${i} 🎬 镜头"}`);
    for (const piece of pieces) writer.write(piece);
    const bytes = writer.result();
    expect(bytes.toString('utf8')).toBe(pieces.join(''));
    expect(bytes.length).toBe(Buffer.byteLength(pieces.join('')));
  });
});
