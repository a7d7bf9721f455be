import { sql } from 'kysely';
import { Conflict, isoTime, NotFound, type AddonInfo, type Database } from '@pipewright/sdk';
import type { Heartbeat, ServiceConfig, ServiceModel, ServicePatch, ServicePut } from './schemas.js';

/**
 * A service counts as running only while its host keeps reporting it. A host that dies never says its services
 * stopped, so a flag older than this many seconds is reported as not running.
 */
export const RUNNING_WINDOW_SECONDS = 60;

/** Hosts silent for this long are forgotten, as AYON's daily maintenance does. */
export const FORGET_HOSTS_AFTER = '1 day';

const CONFIG_KEYS = ['image', 'env', 'volumes', 'ports', 'memLimit', 'user', 'storagePath'] as const;

type Row = Record<string, any>;

// Read with the seconds since the last report computed by the database, whose clock also wrote last_seen.
const SERVICE_COLUMNS = sql`
  name, hostname, addon_name, addon_version, service, should_run, is_running, last_seen, data,
  EXTRACT(EPOCH FROM (now() - last_seen))::float8 AS last_seen_delta`;

function toModel(row: Row): ServiceModel {
  const data = (row.data ?? {}) as Record<string, any>;
  const delta = row.last_seen_delta === null ? null : Number(row.last_seen_delta);
  return {
    name: row.name,
    hostname: row.hostname,
    addonName: row.addon_name,
    addonVersion: row.addon_version,
    service: row.service,
    shouldRun: row.should_run,
    isRunning: row.is_running && delta !== null && delta <= RUNNING_WINDOW_SECONDS,
    lastSeen: row.last_seen ? isoTime(row.last_seen) : null,
    lastSeenDelta: delta,
    data: {
      image: data.image ?? null,
      env: data.env ?? {},
      volumes: data.volumes ?? null,
      ports: data.ports ?? null,
      memLimit: data.memLimit ?? null,
      user: data.user ?? null,
      storagePath: data.storagePath ?? null,
    },
  };
}

/** The keys a request names: top-level keys over "config" over "data" when a client sends several. */
function configOf(
  body: {
    data?: ServiceConfig | null;
    config?: ServiceConfig | null;
  } & ServiceConfig,
): ServiceConfig | null {
  const merged: ServiceConfig = { ...(body.data ?? {}), ...(body.config ?? {}) };
  for (const key of CONFIG_KEYS)
    if (key !== 'image' && key in body) Object.assign(merged, { [key]: body[key] });
  const named = CONFIG_KEYS.filter((key) => key in merged);
  return named.length ? Object.fromEntries(named.map((key) => [key, merged[key]])) : null;
}

export class ServiceStore {
  constructor(
    private readonly db: Database,
    private readonly addons: () => AddonInfo[],
  ) {}

  async list(): Promise<ServiceModel[]> {
    const rows = await sql<Row>`SELECT ${SERVICE_COLUMNS} FROM services ORDER BY name`.execute(this.db);
    return rows.rows.map(toModel);
  }

  /**
   * Assign a service of a running addon to a host. The image comes from the addon's description of the service
   * unless the request names one. A name already in use is a conflict: PATCH changes an existing service.
   */
  async create(name: string, body: ServicePut): Promise<void> {
    const addon = this.addons().find(
      (a) => a.name === body.addonName && a.version === body.addonVersion && a.enabled,
    );
    if (!addon) throw new NotFound(`Addon ${body.addonName} ${body.addonVersion} is not running`);
    const description = addon.services[body.service];
    if (!description)
      throw new NotFound(`Addon ${addon.name} ${addon.version} has no service ${body.service}`);
    const config = configOf(body) ?? {};
    const data = { ...config, image: config.image ?? description.image ?? null };
    const inserted = await this.db
      .insertInto('services')
      .values({
        name,
        hostname: body.hostname,
        addon_name: addon.name,
        addon_version: addon.version,
        service: body.service,
        should_run: body.shouldRun,
        data: JSON.stringify(data),
      })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    if (!inserted) throw new Conflict(`Service ${name} already exists`);
  }

  /** Start or stop a service, or change how it runs: only the keys given change, under a row lock. */
  async update(name: string, patch: ServicePatch): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('services')
        .select('data')
        .where('name', '=', name)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw new NotFound(`Service ${name} not found`);
      const values: Record<string, unknown> = {};
      if (patch.shouldRun !== undefined && patch.shouldRun !== null) values.should_run = patch.shouldRun;
      if (patch.hostname) values.hostname = patch.hostname;
      const config = configOf(patch);
      if (config) values.data = JSON.stringify({ ...(row.data as object), ...config });
      if (Object.keys(values).length)
        await trx.updateTable('services').set(values).where('name', '=', name).execute();
    });
  }

  async remove(name: string): Promise<void> {
    const deleted = await this.db.deleteFrom('services').where('name', '=', name).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new NotFound(`Service ${name} not found`);
  }

  async hosts() {
    const rows: Row[] = await this.db
      .selectFrom('hosts')
      .selectAll()
      .where('last_seen', '>=', sql<Date>`now() - ${FORGET_HOSTS_AFTER}::interval`)
      .orderBy('name')
      .execute();
    return rows.map((row) => ({
      name: row.name as string,
      lastSeen: isoTime(row.last_seen),
      health: { cpu: Number(row.health?.cpu ?? 0), mem: Number(row.health?.mem ?? 0) },
    }));
  }

  /**
   * A host reports in: its health is recorded, the services of that host it lists are running (the others it
   * runs are not), and it is told which of its services should run. One transaction, so a reader never sees
   * the host updated but its services not.
   */
  async heartbeat(beat: Heartbeat): Promise<ServiceModel[]> {
    return this.db.transaction().execute(async (trx) => {
      const health = JSON.stringify({ cpu: beat.health.cpu, mem: beat.health.mem });
      await trx
        .insertInto('hosts')
        .values({ name: beat.hostname, last_seen: sql`now()`, health })
        .onConflict((conflict) => conflict.column('name').doUpdateSet({ last_seen: sql`now()`, health }))
        .execute();
      const listed = [...new Set(beat.services)];
      const reported = listed.length ? sql<boolean>`name IN (${sql.join(listed)})` : sql<boolean>`false`;
      await trx
        .updateTable('services')
        .set({
          is_running: reported,
          last_seen: sql`CASE WHEN ${reported} THEN now() ELSE last_seen END`,
        })
        .where('hostname', '=', beat.hostname)
        .execute();
      // AYON forgets silent hosts in a nightly job; here every heartbeat does it, which needs no scheduler.
      await sql`DELETE FROM hosts WHERE last_seen < now() - ${FORGET_HOSTS_AFTER}::interval`.execute(trx);
      const rows = await sql<Row>`
        SELECT ${SERVICE_COLUMNS} FROM services WHERE hostname = ${beat.hostname} AND should_run ORDER BY name`.execute(
        trx,
      );
      return rows.rows.map(toModel);
    });
  }
}
