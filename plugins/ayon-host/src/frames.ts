// The sidecar's wire: each message is a 4-byte big-endian length, then that many bytes of UTF-8 JSON.

/** One message as bytes on the wire. */
export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

/** Collects chunks as a pipe delivers them and hands out each whole message once its last byte arrived. */
export class FrameReader {
  private pending: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly onMessage: (message: unknown) => void) {}

  push(chunk: Buffer): void {
    this.pending.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < 4) return;
    let data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    let offset = 0;
    while (data.length - offset >= 4) {
      const size = data.readUInt32BE(offset);
      if (data.length - offset - 4 < size) break;
      const body = data.subarray(offset + 4, offset + 4 + size);
      offset += 4 + size;
      this.onMessage(JSON.parse(body.toString('utf8')));
    }
    data = data.subarray(offset);
    this.pending = data.length ? [data] : [];
    this.buffered = data.length;
  }
}
