import { TooManyRequests } from '@pipewright/sdk';
import type { PasswordGuess, PasswordGuesses } from './api.js';

export interface ThrottleLimits {
  /** Failures of one account before its next guess must wait. */
  freeFailures: number;
  /** The wait after the last free failure; each further failure doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long an account's failures are remembered. */
  accountWindowMs: number;
  /** Failures from one address, across all accounts, within addressWindowMs. */
  addressFailures: number;
  addressWindowMs: number;
  /** How long a successful login makes an account known at an address. */
  knownForMs: number;
  /** Accounts, addresses and known pairs remembered at most (each); the least recently touched go first. */
  maxTracked: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  freeFailures: 5,
  firstDelayMs: 1000,
  maxDelayMs: 60_000,
  accountWindowMs: 15 * 60_000,
  // A hundred artists mistyping their password in the same hour is far beyond a normal morning at a studio.
  addressFailures: 100,
  addressWindowMs: 60 * 60_000,
  knownForMs: 30 * 24 * 3600_000,
  maxTracked: 50_000,
};

/** A 429 that says when to come back (the login route sends it as Retry-After too). */
export class LoginThrottled extends TooManyRequests {
  constructor(
    reason: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`Too many wrong passwords ${reason}; try again in ${retryAfterSeconds} s`, 'login-throttled');
  }
}

interface AccountFailures {
  /** Times of the recent failures, oldest first (only as many as the back-off needs). */
  at: number[];
  waitUntil: number;
}

/** A Map that forgets the least recently touched entries beyond a size. */
class BoundedMap<V> extends Map<string, V> {
  constructor(private readonly limit: number) {
    super();
  }

  touch(key: string, value: V): void {
    this.delete(key);
    // A tenth at a time: finding the oldest entry walks over the holes deletions left, too slow to do each time.
    if (this.size >= this.limit) {
      let drop = Math.max(1, Math.floor(this.limit / 10));
      for (const oldest of this.keys()) {
        this.delete(oldest);
        if (--drop === 0) break;
      }
    }
    this.set(key, value);
  }
}

export class LoginThrottle implements PasswordGuesses {
  private readonly accounts: BoundedMap<AccountFailures>;
  private readonly addresses: BoundedMap<number[]>;
  /** account + address -> when the account last logged in from there. */
  private readonly known: BoundedMap<number>;
  private readonly limits: ThrottleLimits;

  constructor(
    limits: Partial<ThrottleLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.accounts = new BoundedMap(this.limits.maxTracked);
    this.addresses = new BoundedMap(this.limits.maxTracked);
    this.known = new BoundedMap(this.limits.maxTracked);
  }

  attempt(account: string, address: string): PasswordGuess {
    const name = account.toLowerCase();
    const now = this.now();
    const known = this.isKnown(name, address, now);
    const accountKey = known ? `${name}\n${address}` : name;

    const failures = this.accountFailures(accountKey, now);
    if (failures.waitUntil > now)
      throw new LoginThrottled('for this account', seconds(failures.waitUntil - now));
    const fromAddress = this.addressFailures(address, now);
    if (!known && fromAddress.length >= this.limits.addressFailures) {
      throw new LoginThrottled(
        'from this address',
        seconds(fromAddress[0] + this.limits.addressWindowMs - now),
      );
    }

    this.countFailure(accountKey, failures, now);
    fromAddress.push(now);
    // Bounded, with room for guesses still under way: trimming a real failure for one of them would reopen the budget.
    this.addresses.touch(address, fromAddress.slice(-2 * this.limits.addressFailures));

    return {
      succeeded: () => {
        this.accounts.delete(accountKey);
        // The guess was counted as a failure up front; it was not one.
        const recorded = this.addresses.get(address);
        const index = recorded?.lastIndexOf(now) ?? -1;
        if (recorded && index >= 0) recorded.splice(index, 1);
        this.known.touch(`${name}\n${address}`, this.now());
      },
    };
  }

  private isKnown(name: string, address: string, now: number): boolean {
    const since = this.known.get(`${name}\n${address}`);
    return since !== undefined && now - since < this.limits.knownForMs;
  }

  private accountFailures(key: string, now: number): AccountFailures {
    const entry = this.accounts.get(key);
    if (!entry) return { at: [], waitUntil: 0 };
    return { at: entry.at.filter((t) => t > now - this.limits.accountWindowMs), waitUntil: entry.waitUntil };
  }

  private countFailure(key: string, failures: AccountFailures, now: number): void {
    const { freeFailures, firstDelayMs, maxDelayMs } = this.limits;
    // Enough history for the longest wait; older failures change nothing.
    const at = [...failures.at, now].slice(-(freeFailures + 16));
    const beyond = at.length - freeFailures;
    const waitUntil = beyond >= 0 ? now + Math.min(firstDelayMs * 2 ** beyond, maxDelayMs) : 0;
    this.accounts.touch(key, { at, waitUntil });
  }

  private addressFailures(address: string, now: number): number[] {
    return (this.addresses.get(address) ?? []).filter((t) => t > now - this.limits.addressWindowMs);
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
