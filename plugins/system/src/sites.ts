import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { isoTime, type Database } from '@pipewright/sdk';

/** A client installation as GET /api/system/sites shows it. */
export interface SiteInfo {
  id: string;
  platform: string | null;
  hostname: string | null;
  version: string | null;
  users: string[];
  lastSeen: string;
}

export const PLATFORMS = ['windows', 'linux', 'darwin'] as const;

/** Site ids as AYON's launcher makes them (three words joined by hyphens), and anything similarly plain. */
const SITE_ID = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/;
/** How often one site seen with the same user and details is written again. */
const REFRESH_MS = 60_000;
/** Bound on the memory of recently written sites; past it, old entries are dropped. */
const MAX_REMEMBERED = 10_000;
/** How long a user's sites are remembered for GET /api/info, which clients poll. */
const USER_SITES_MS = 5000;

/** A site as AYON's SiteInfo has it (GET /api/info lists the caller's). */
export interface UserSite {
  id: string;
  platform: string | null;
  hostname: string | null;
  version: string | null;
  users: string[];
}

function header(request: FastifyRequest, name: string, maxLength: number): string | null {
  const value = request.headers[name];
  if (typeof value !== 'string') return null;
  // Control characters would only garble a list; PostgreSQL refuses NUL outright.
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\x00-\x1f\x7f]/g, '').trim();
  return clean ? clean.slice(0, maxLength) : null;
}

function platformOf(request: FastifyRequest): string | null {
  const value = header(request, 'x-ayon-platform', 32)?.toLowerCase() ?? null;
  return value && (PLATFORMS as readonly string[]).includes(value) ? value : null;
}

/**
 * Sites the server has seen: every request that carries x-ayon-site-id and comes from a logged-in user registers
 * the site (its platform, hostname and client version from the x-ayon-* headers) and adds the user to it.
 * Writes are cheap on purpose: the same site, user and details are written at most once a minute per process.
 */
export class SiteRegistry {
  private readonly written = new Map<string, number>();
  private readonly userSites = new Map<string, { sites: UserSite[]; until: number }>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Register the site a request comes from, if it names one and a user is logged in; a promise only when it is
   * written (at most once a minute for the same details).
   */
  seen(request: FastifyRequest): Promise<void> | undefined {
    // Read whole: a long id is refused, not cut down to another site's id.
    const id = header(request, 'x-ayon-site-id', 1024);
    const user = request.user?.name;
    if (!id || !user || !SITE_ID.test(id)) return undefined;
    const site = {
      id,
      platform: platformOf(request),
      hostname: header(request, 'x-ayon-hostname', 255),
      version: header(request, 'x-ayon-version', 64),
    };
    const key = JSON.stringify([site.id, user, site.platform, site.hostname, site.version]);
    const now = this.now();
    const last = this.written.get(key);
    if (last !== undefined && now - last < REFRESH_MS) return undefined;
    this.remember(key, now);
    return this.upsert(site, user).then(
      () => void this.userSites.delete(user),
      (error: unknown) => {
        this.written.delete(key);
        throw error;
      },
    );
  }

  /**
   * The sites a user worked from, the one a request comes from first (as AYON's /api/info lists them). Remembered
   * a few seconds per process; a site this process registers for the user is seen at once.
   */
  async ofUser(user: string, currentSiteId: string | null): Promise<UserSite[]> {
    const now = this.now();
    let entry = this.userSites.get(user);
    if (!entry || entry.until <= now) {
      const sites = (await this.list({ user })).map(({ id, platform, hostname, version, users }) => ({
        id,
        platform,
        hostname,
        version,
        users,
      }));
      if (this.userSites.size >= MAX_REMEMBERED) this.userSites.clear();
      entry = { sites, until: now + USER_SITES_MS };
      this.userSites.set(user, entry);
    }
    const current = entry.sites.filter((site) => site.id === currentSiteId);
    return [...current, ...entry.sites.filter((site) => site.id !== currentSiteId)];
  }

  private async upsert(
    site: { id: string; platform: string | null; hostname: string | null; version: string | null },
    user: string,
  ): Promise<void> {
    await this.db
      .insertInto('sites')
      .values({ ...site, users: JSON.stringify([user]) })
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet({
          // A header a client left out does not erase what an earlier request told us.
          platform: sql`coalesce(excluded.platform, sites.platform)`,
          hostname: sql`coalesce(excluded.hostname, sites.hostname)`,
          version: sql`coalesce(excluded.version, sites.version)`,
          users: sql`CASE WHEN sites.users @> excluded.users THEN sites.users ELSE sites.users || excluded.users END`,
          last_seen: sql`now()`,
        }),
      )
      .execute();
  }

  /** Known sites, optionally only one platform or hostname, or only those a user worked from. */
  async list(filter: { platform?: string; hostname?: string; user?: string }): Promise<SiteInfo[]> {
    let select = this.db.selectFrom('sites').selectAll().orderBy('id');
    if (filter.platform) select = select.where('platform', '=', filter.platform);
    if (filter.hostname) select = select.where('hostname', '=', filter.hostname);
    if (filter.user) select = select.where(sql<boolean>`users @> ${JSON.stringify([filter.user])}::jsonb`);
    const rows = await select.execute();
    return rows.map((row) => ({
      id: row.id,
      platform: row.platform,
      hostname: row.hostname,
      version: row.version,
      users: row.users,
      lastSeen: isoTime(row.last_seen),
    }));
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('sites')
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Forget a site; false when it was not known. Its next request registers it again. */
  async remove(id: string): Promise<boolean> {
    const deleted = await this.db.deleteFrom('sites').where('id', '=', id).executeTakeFirst();
    this.userSites.clear();
    for (const key of this.written.keys())
      if ((JSON.parse(key) as string[])[0] === id) this.written.delete(key);
    return Number(deleted.numDeletedRows) > 0;
  }

  private remember(key: string, now: number): void {
    if (this.written.size >= MAX_REMEMBERED) {
      for (const [old, at] of this.written) if (now - at >= REFRESH_MS) this.written.delete(old);
      if (this.written.size >= MAX_REMEMBERED) this.written.clear();
    }
    this.written.set(key, now);
  }
}
