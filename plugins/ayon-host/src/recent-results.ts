/**
 * The answers of a pure function of JSON input, kept for the most recent inputs: AYON packages' settings are
 * computed by their models from the stored overrides alone, and every launcher, farm job and pipeline start reads
 * the same ones. A copy is handed out each time, so no caller can change what the next one gets.
 */
export class RecentResults<T> {
  private readonly kept = new Map<string, Promise<T>>();

  constructor(private readonly size: number) {}

  async get(input: unknown, compute: () => Promise<T>): Promise<T> {
    const key = JSON.stringify(input);
    let answer = this.kept.get(key);
    if (answer) {
      // Most recently used last: the first entry is the one to forget.
      this.kept.delete(key);
    } else {
      answer = compute();
      // A failure is not kept: the next call tries again (the sidecar may have been restarting).
      answer.catch(() => this.kept.get(key) === answer && this.kept.delete(key));
      if (this.kept.size >= this.size) this.kept.delete(this.kept.keys().next().value!);
    }
    this.kept.set(key, answer);
    return structuredClone(await answer);
  }
}
