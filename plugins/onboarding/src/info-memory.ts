import type { EventBus } from '@pipewright/sdk';
import type { UserDirectory } from '@pipewright/plugin-users/api';

type PresentedUser = ReturnType<UserDirectory['present']>;

/** What GET /api/info shows beyond the server's own facts. */
export interface InfoFacts {
  hasAdmin: boolean;
  /** The caller as presented (null when anonymous or gone). */
  user: PresentedUser | null;
  onboardingFinished: boolean;
}

// GET /api/info is what every client calls first and polls: three queries per call held it to a few hundred answers
// a second on PGlite. What it reads is remembered here until something it depends on changes: any user change
// (user.* events and the auth addon's identities notice, which reach every server process through Redis) or the
// onboarding state (the notice below). A short lifetime bounds what a change made behind the server's back can do.
const REMEMBER_MS = 5000;
const ONBOARDING_CHANGED = 'onboarding.state_changed';
const MAX_USERS = 10_000;

const fresh = (entry: { until: number } | null | undefined, now: number) => !!entry && entry.until > now;

/** The answers GET /api/info reads, remembered per process. */
export class InfoMemory {
  /** Bumped by every change, so a lookup that began before a change does not store what it read. */
  private generation = 0;
  /** Only "an administrator exists" is remembered: the first one may be created by any process. */
  private adminSeenUntil = 0;
  private finished: { value: boolean; until: number } | null = null;
  private readonly users = new Map<string, { user: PresentedUser | null; until: number }>();

  constructor(
    private readonly events: EventBus,
    private readonly directory: UserDirectory,
    private readonly readFinished: () => Promise<boolean>,
  ) {
    for (const topic of ['user.*', 'auth.identities_changed', ONBOARDING_CHANGED])
      events.subscribe(topic, () => this.clear());
  }

  /**
   * What GET /api/info shows the caller (null when anonymous): answered at once when everything is remembered,
   * which is almost every call, else once the missing parts are read.
   */
  facts(userName: string | null): InfoFacts | Promise<InfoFacts> {
    const now = Date.now();
    const user = userName === null ? undefined : this.users.get(userName);
    const remembered =
      this.adminSeenUntil > now && (userName === null || (fresh(user, now) && fresh(this.finished, now)));
    if (!remembered) return this.read(userName);
    return { hasAdmin: true, user: user?.user ?? null, onboardingFinished: this.finished?.value ?? false };
  }

  private async read(userName: string | null): Promise<InfoFacts> {
    const [hasAdmin, user, onboardingFinished] = await Promise.all([
      this.hasAdmin(),
      userName === null ? null : this.user(userName),
      userName === null ? false : this.onboardingFinished(),
    ]);
    return { hasAdmin, user, onboardingFinished };
  }

  private async hasAdmin(): Promise<boolean> {
    if (this.adminSeenUntil > Date.now()) return true;
    const generation = this.generation;
    const exists = await this.directory.hasAdmin();
    if (exists && generation === this.generation) this.adminSeenUntil = Date.now() + REMEMBER_MS;
    return exists;
  }

  /** The user as /api/info shows them (presented once, not on every call). */
  private async user(name: string): Promise<PresentedUser | null> {
    const entry = this.users.get(name);
    if (entry && entry.until > Date.now()) return entry.user;
    const generation = this.generation;
    const record = await this.directory.get(name);
    const user = record && this.directory.present(record);
    if (generation === this.generation) {
      if (this.users.size >= MAX_USERS) this.users.clear();
      this.users.set(name, { user, until: Date.now() + REMEMBER_MS });
    }
    return user;
  }

  private async onboardingFinished(): Promise<boolean> {
    if (this.finished && this.finished.until > Date.now()) return this.finished.value;
    const generation = this.generation;
    const value = await this.readFinished();
    if (generation === this.generation) this.finished = { value, until: Date.now() + REMEMBER_MS };
    return value;
  }

  /** The onboarding state changed here: forget it here at once and, through the notice, in every other process. */
  async onboardingChanged(): Promise<void> {
    this.clear();
    await this.events.emit({
      topic: ONBOARDING_CHANGED,
      store: false,
      description: 'onboarding state changed',
    });
  }

  private clear(): void {
    this.generation++;
    this.adminSeenUntil = 0;
    this.finished = null;
    this.users.clear();
  }
}
