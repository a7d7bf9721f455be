import { TooManyRequests } from '@pipewright/sdk';

/**
 * Failed logins per client address in a sliding window. Only failures count, so a studio whose artists all log in
 * from one NAT address at nine in the morning is not locked out, while guessing passwords is slowed to a crawl.
 * Kept per process: with N processes an attacker gets N times the budget, still far too little to guess.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures = 10,
    private readonly windowMs = 60_000,
  ) {}

  /** Throw 429 when this address failed too often lately. */
  check(address: string): void {
    const recent = this.recent(address);
    if (recent.length >= this.maxFailures) {
      const retryIn = Math.ceil((recent[0] + this.windowMs - Date.now()) / 1000);
      throw new TooManyRequests(`Too many failed logins from this address; try again in ${retryIn} s`);
    }
  }

  fail(address: string): void {
    this.failures.set(address, [...this.recent(address), Date.now()]);
  }

  succeed(address: string): void {
    this.failures.delete(address);
  }

  private recent(address: string): number[] {
    const since = Date.now() - this.windowMs;
    const recent = (this.failures.get(address) ?? []).filter((at) => at > since);
    if (recent.length === 0) this.failures.delete(address);
    return recent;
  }
}
