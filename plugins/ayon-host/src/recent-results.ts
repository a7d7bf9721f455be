/**
 * The answers of a pure function of JSON input, kept for the most recent inputs: AYON packages' settings are
 * computed by their models from the stored overrides alone, and every launcher, farm job and pipeline start reads
 * the same ones. Answers are frozen, deeply, and shared: a caller that tried to change one would fail at once rather
 * than change what the next caller gets (copying them instead cost more than the rest of GET /api/settings).
 */
export class RecentResults<T> {
  private readonly kept = new Map<string, Promise<T>>();

  constructor(private readonly size: number) {}

  get(input: unknown, compute: () => Promise<T>): Promise<T> {
    const key = JSON.stringify(input);
    let answer = this.kept.get(key);
    if (answer) {
      // Most recently used last: the first entry is the one to forget.
      this.kept.delete(key);
    } else {
      answer = compute().then(deepFreeze);
      // A failure is not kept: the next call tries again (the sidecar may have been restarting).
      answer.catch(() => this.kept.get(key) === answer && this.kept.delete(key));
      if (this.kept.size >= this.size) this.kept.delete(this.kept.keys().next().value!);
    }
    this.kept.set(key, answer);
    return answer;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
