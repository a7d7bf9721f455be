// Random bytes are drawn a few kilobytes at a time: bulk writes make hundreds of thousands of ids.
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const pool = new Uint8Array(4096);
let offset = pool.length;

/** A new entity id: a random (version 4) UUID as 32 lowercase hex characters. */
export function newId(): string {
  if (offset === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const start = offset;
  offset += 16;
  pool[start + 6] = (pool[start + 6] & 0x0f) | 0x40;
  pool[start + 8] = (pool[start + 8] & 0x3f) | 0x80;
  let id = '';
  for (let i = start; i < start + 16; i++) id += HEX[pool[i]];
  return id;
}

/**
 * A new time-ordered id: a version 7 UUID (milliseconds since 1970, then random bits) as 32 lowercase hex
 * characters. For rows written in time order, such as events: each new id lands at the end of its indexes instead
 * of on a random page, which makes inserting hundreds of thousands of them far cheaper.
 */
export function newOrderedId(): string {
  // A version 4 id already has random bits and the variant in place: swap its first 13 hex digits.
  return Date.now().toString(16).padStart(12, '0') + '7' + newId().slice(13);
}

/** Whether a string has the form of an id (32 lowercase hex characters). */
export function isId(value: string): boolean {
  return /^[0-9a-f]{32}$/.test(value);
}
