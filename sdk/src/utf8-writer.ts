/**
 * Text written straight into UTF-8 bytes. For a large answer made of many small strings this is cheaper than
 * joining them into one string and encoding that: the join alone copies every character once more.
 */
export class Utf8Writer {
  private bytes: Buffer;
  private length = 0;

  constructor(expectedBytes: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(expectedBytes, 1024));
  }

  /** Append text, growing the buffer when it might not fit. */
  write(text: string): void {
    // A UTF-16 unit takes at most 3 bytes; Buffer.write would cut a text that does not fit.
    if (this.length + text.length * 3 > this.bytes.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + text.length * 3));
      this.bytes.copy(larger, 0, 0, this.length);
      this.bytes = larger;
    }
    this.length += this.bytes.write(text, this.length);
  }

  /**
   * Append items as one JSON array, stringified a hundred at a time: V8 builds a long JSON.stringify result in
   * pieces, and joining them on first use (to measure or encode it) cost four times the stringify itself.
   */
  writeJsonArray(items: unknown[]): void {
    this.write('[');
    for (let i = 0; i < items.length; i += 100) {
      const part = JSON.stringify(items.slice(i, i + 100));
      this.write(i ? `,${part.slice(1, -1)}` : part.slice(1, -1));
    }
    this.write(']');
  }

  /** What was written; copied out when a view would keep much unused memory alive (a kept answer lives long). */
  result(): Buffer {
    const written = this.bytes.subarray(0, this.length);
    return this.bytes.length - this.length > this.length / 4 ? Buffer.from(written) : written;
  }
}
