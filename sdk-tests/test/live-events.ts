/** Collects what a handler receives and lets a test wait for the first item that matches. */
export interface Collector<T> {
  items: T[];
  /** The handler to pass on (bound, so it can be passed as is). */
  add: (item: T) => void;
  /** The first item, already received or arriving within timeoutMs, that matches. */
  next(match: (item: T) => boolean, timeoutMs?: number): Promise<T>;
}

/** A Collector with nothing in it yet. */
export function collector<T>(): Collector<T> {
  const items: T[] = [];
  const waiters = new Set<() => void>();
  return {
    items,
    add: (item) => {
      items.push(item);
      for (const wake of [...waiters]) wake();
    },
    next(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = items.find(match);
          if (found === undefined) return false;
          clearTimeout(timer);
          waiters.delete(look);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`nothing matching arrived within ${timeoutMs} ms; got ${JSON.stringify(items)}`));
        }, timeoutMs);
        if (!look()) waiters.add(look);
      });
    },
  };
}

/** Resolves once check() holds, polling every 20 ms; rejects after timeoutMs. */
export async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
