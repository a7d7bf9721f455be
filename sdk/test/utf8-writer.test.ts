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

  it('writes an array as JSON.stringify does, however many items and wherever a chunk ends', () => {
    for (const count of [0, 1, 99, 100, 101, 250]) {
      const items = Array.from({ length: count }, (_, i) =>
        i % 7 === 3 ? undefined : { i, label: `镜头 ${i} 🎬` },
      );
      const writer = new Utf8Writer(0);
      writer.write('x');
      writer.writeJsonArray(items);
      expect(writer.result().toString('utf8')).toBe(`x${JSON.stringify(items)}`);
    }
  });
});
