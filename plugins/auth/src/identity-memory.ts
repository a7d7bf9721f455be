import type { EventBus, RequestUser } from '@pipewright/sdk';

// Finding who a credential stands for costs two queries (the session or key, then the user) on every request:
// identities are remembered this long. Any change to sessions, keys or users forgets them all at once here and,
// through a notice on the event bus (Redis between processes), in every other server process.
const REMEMBER_MS = 5000;
const CHANGED = 'auth.identities_changed';
const MAX_ENTRIES = 10_000;

/** Recently resolved identities, by credential. */
export class IdentityMemory {
  private readonly entries = new Map<string, { caller: RequestUser | null; until: number }>();

  constructor(private readonly events: EventBus) {
    events.subscribe(CHANGED, () => this.entries.clear());
  }

  /** The identity remembered for a credential; undefined when it must be looked up. */
  recall(key: string): RequestUser | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.until <= Date.now() || !entry.caller) return undefined;
    // A copy: request handlers may not change what the next request sees.
    return { ...entry.caller };
  }

  remember(key: string, caller: RequestUser): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { caller, until: Date.now() + REMEMBER_MS });
  }

  /** Forget every identity, here at once and in other processes when the notice reaches them. */
  async forget(): Promise<void> {
    this.entries.clear();
    await this.events.emit({ topic: CHANGED, store: false, description: 'sessions, keys or users changed' });
  }
}
