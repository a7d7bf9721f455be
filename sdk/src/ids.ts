/** A new entity id: a random UUID as 32 lowercase hex characters. */
export function newId(): string {
  return globalThis.crypto.randomUUID().replaceAll('-', '');
}
