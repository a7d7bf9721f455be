import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { API_VERSION, Forbidden, ValidationFailed, type Database, type RequestUser } from '@pipewright/sdk';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import type { FastifyBaseLogger } from 'fastify';
import {
  CloudRejected,
  CloudUnreachable,
  callCloud,
  cloudAt,
  cloudSettings,
  type CloudSettings,
} from './cloud.js';
import type { YnputCloud } from './api.js';

/** The secret holding the cloud key: the name AYON uses, so GET /api/secrets lists it as AYON servers do. */
export const KEY_SECRET = 'ynput_cloud_key';

/**
 * Whether a key travels to the cloud as it is: it goes in an HTTP header, which carries no line breaks, no NUL and
 * nothing beyond Latin-1, and loses surrounding spaces.
 */
function sendable(key: string): boolean {
  try {
    return new Headers({ 'x-ynput-cloud-key': key }).get('x-ynput-cloud-key') === key;
  } catch {
    return false;
  }
}

/** What the cloud confirmed about this instance stays good this long before it is asked again. */
const INFO_TTL_MS = 10 * 60 * 1000;
/** A granted feedback verification is reused this long (per user), unless the caller forces a new one. */
const FEEDBACK_TTL_MS = 2 * 60 * 60 * 1000;

export const NOT_CONNECTED =
  'This server is not connected to Ynput Cloud; an administrator can connect it with POST /api/connect';

export interface CloudSubscription {
  name: string;
  productType: string;
  trialEnd: string | null;
}

/** YnputCloudInfoModel on the wire (GET and POST /api/connect). */
export interface CloudInfo {
  instanceId: string;
  instanceName: string | null;
  orgId: string | null;
  orgName: string | null;
  orgTitle: string | null;
  managed: boolean;
  collectSaturatedMetrics: boolean;
  subscriptions: CloudSubscription[];
  connected: boolean;
  /** Why connected is false, or what could not be verified. */
  detail?: string;
}

export interface FeedbackAnswer {
  available: boolean;
  detail: string | null;
  data: Record<string, unknown> | null;
}

/** Where the key lives: the secrets addon, encrypted at rest and readable by admins only. */
export interface KeyStore {
  get(name: string): Promise<string | null>;
  set(name: string, value: string, actor: string): Promise<unknown>;
  /** Forget the value; nothing happens when there is none. */
  remove(name: string, actor: string): Promise<void>;
}

interface ConnectionRow {
  instance_id: string;
  key_fingerprint: string | null;
  cloud_url: string | null;
  info: Partial<CloudInfo> | null;
  verified_at: Date | string | null;
}

export class ConnectService implements YnputCloud {
  private instance: string | null = null;
  private readonly feedbackCache = new Map<string, { data: Record<string, unknown>; at: number }>();

  constructor(
    private readonly db: Database,
    private readonly keys: KeyStore,
    private readonly users: UserDirectory,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** This server's id towards the cloud, made once by the migration and never changed. */
  async instanceId(): Promise<string> {
    if (this.instance) return this.instance;
    const row = await this.row();
    this.instance = row.instance_id;
    return row.instance_id;
  }

  baseUrl(): string {
    return cloudSettings().baseUrl;
  }

  /**
   * GET /api/connect. Without a key: not connected. With one: what the cloud confirmed in the last ten minutes for
   * this key and cloud URL, or what it says now. When the cloud cannot be reached or refuses the key, the answer
   * says so in detail (connected false) and keeps what was confirmed before, as AYON servers answer 200 here.
   */
  async info(): Promise<CloudInfo> {
    const row = await this.row();
    const key = await this.keys.get(KEY_SECRET);
    if (!key) return blankInfo(row.instance_id, NOT_CONNECTED);
    const settings = cloudSettings();
    const known = knownInfo(row, fingerprint(key), settings.baseUrl);
    if (known && Date.now() - known.verifiedAt.getTime() < INFO_TTL_MS) {
      return { ...known.info, instanceId: row.instance_id, connected: true };
    }
    try {
      const info = await this.askCloud(settings, row.instance_id, key);
      await this.remember(fingerprint(key), settings.baseUrl, info);
      return { ...info, connected: true };
    } catch (error) {
      if (!(error instanceof CloudUnreachable || error instanceof CloudRejected)) throw error;
      this.log.warn(
        { cloud: settings.baseUrl, reason: error.message },
        'Ynput Cloud info could not be refreshed',
      );
      const detail =
        error instanceof CloudRejected
          ? `${error.message}; an administrator must connect again with a valid key`
          : known
            ? `${error.message}; showing what it confirmed at ${known.verifiedAt.toISOString()}`
            : error.message;
      return {
        ...(known?.info ?? blankInfo(row.instance_id)),
        instanceId: row.instance_id,
        connected: false,
        detail,
      };
    }
  }

  /**
   * POST /api/connect. The key is checked with the cloud first: a key the cloud refuses is not stored (and a key
   * stored before stays). A cloud that cannot be reached does not stop an operator working offline: the key is
   * stored and the answer says it is not verified yet.
   */
  async connect(key: string, actor: string): Promise<CloudInfo> {
    // Any text is taken, as in AYON, but one the cloud could never be asked with is not stored.
    if (!sendable(key))
      throw new ValidationFailed([
        { loc: ['body', 'key'], msg: 'an HTTP header cannot carry this key as it is', type: 'value_error' },
      ]);
    const instanceId = await this.instanceId();
    const settings = cloudSettings();
    let info: Omit<CloudInfo, 'connected'> | null = null;
    let unverified: string | null = null;
    try {
      info = await this.askCloud(settings, instanceId, key);
    } catch (error) {
      if (error instanceof CloudRejected) {
        throw new Forbidden(`${cloudAt(settings)} refused this key; nothing was stored`, 'cloud-rejected');
      }
      if (!(error instanceof CloudUnreachable)) throw error;
      unverified = error.message;
      this.log.warn(
        { cloud: settings.baseUrl, reason: error.message },
        'Stored a Ynput Cloud key without verifying it',
      );
    }
    await this.keys.set(KEY_SECRET, key, actor);
    await this.remember(fingerprint(key), settings.baseUrl, info);
    if (info) return { ...info, connected: true };
    return {
      ...blankInfo(instanceId),
      detail: `The key is stored but not verified: ${unverified}. It is checked again on the next GET /api/connect`,
    };
  }

  /** DELETE /api/connect: forget the key and what the cloud said about it; nothing to forget is fine too. */
  async disconnect(actor: string): Promise<void> {
    await this.keys.remove(KEY_SECRET, actor);
    await this.remember(null, null, null);
    this.feedbackCache.clear();
  }

  /**
   * GET /api/connect/feedback: whether the user may send feedback, with the cloud's verification data. As in AYON,
   * every refusal (guest, not connected, cloud unreachable) is an answer with available false and the reason.
   */
  async feedback(caller: RequestUser, force: boolean): Promise<FeedbackAnswer> {
    if (caller.isGuest) return { available: false, detail: 'Guest users cannot send feedback', data: null };
    const key = await this.keys.get(KEY_SECRET);
    if (!key) return { available: false, detail: NOT_CONNECTED, data: null };
    const settings = cloudSettings();
    const cacheKey = `${caller.name}\n${fingerprint(key)}\n${settings.baseUrl}`;
    const cached = this.feedbackCache.get(cacheKey);
    if (!force && cached && Date.now() - cached.at < FEEDBACK_TTL_MS) {
      return { available: true, detail: null, data: cached.data };
    }
    const user = await this.users.get(caller.name);
    const attrib = user?.attrib ?? {};
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    const payload = {
      name: caller.name,
      email: text(attrib.email),
      fullName: text(attrib.fullName),
      avatarUrl: text(attrib.avatarUrl),
      level: caller.isAdmin ? 'admin' : caller.isManager ? 'manager' : 'user',
      serverVersion: API_VERSION,
    };
    try {
      const data = await callCloud(settings, {
        method: 'POST',
        path: '/api/v2/feedback',
        instanceId: await this.instanceId(),
        key,
        body: payload,
      });
      this.feedbackCache.set(cacheKey, { data, at: Date.now() });
      return { available: true, detail: null, data };
    } catch (error) {
      if (!(error instanceof CloudUnreachable || error instanceof CloudRejected)) throw error;
      this.feedbackCache.delete(cacheKey);
      this.log.warn({ cloud: settings.baseUrl, reason: error.message }, 'Feedback verification failed');
      return { available: false, detail: error.message, data: null };
    }
  }

  async request(
    method: 'GET' | 'POST',
    path: string,
    options: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<Record<string, unknown>> {
    const key = await this.keys.get(KEY_SECRET);
    if (!key) throw new Forbidden(NOT_CONNECTED, 'not-connected');
    const settings = cloudSettings();
    try {
      return await callCloud(settings, {
        method,
        path,
        instanceId: await this.instanceId(),
        key,
        ...options,
      });
    } catch (error) {
      if (error instanceof CloudRejected) {
        throw new CloudRejected(`${error.message}; an administrator must connect again with a valid key`);
      }
      if (error instanceof CloudUnreachable) {
        this.log.warn({ cloud: settings.baseUrl, path, reason: error.message }, 'Ynput Cloud call failed');
      }
      throw error;
    }
  }

  private async askCloud(settings: CloudSettings, instanceId: string, key: string) {
    const answer = await callCloud(settings, { method: 'GET', path: '/api/v1/me', instanceId, key });
    return readInfo(instanceId, answer);
  }

  private async remember(
    keyFingerprint: string | null,
    cloudUrl: string | null,
    info: Omit<CloudInfo, 'connected'> | null,
  ) {
    const stored = info ? JSON.stringify(info) : null;
    await sql`
      UPDATE ynput_cloud_connection
      SET key_fingerprint = ${info ? keyFingerprint : null},
          cloud_url = ${info ? cloudUrl : null},
          info = ${stored}::jsonb,
          verified_at = ${info ? sql`now()` : null}`.execute(this.db);
  }

  private async row(): Promise<ConnectionRow> {
    const result = await sql<ConnectionRow>`
      SELECT instance_id, key_fingerprint, cloud_url, info, verified_at FROM ynput_cloud_connection`.execute(
      this.db,
    );
    const row = result.rows[0];
    // The migration inserts the one row; without it the table was emptied by hand.
    if (!row) throw new Error('ynput_cloud_connection has no row: the connect addon migration was altered');
    return row;
  }
}

/** A key is never kept beside the info; its SHA-256 tells whether the info belongs to the key stored now. */
function fingerprint(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function blankInfo(instanceId: string, detail?: string): CloudInfo {
  return {
    instanceId,
    instanceName: null,
    orgId: null,
    orgName: null,
    orgTitle: null,
    managed: false,
    collectSaturatedMetrics: false,
    subscriptions: [],
    connected: false,
    ...(detail ? { detail } : {}),
  };
}

/** What the cloud confirmed before, if it was for this key at this cloud URL. */
function knownInfo(row: ConnectionRow, keyFingerprint: string, cloudUrl: string) {
  if (!row.info || !row.verified_at || row.key_fingerprint !== keyFingerprint || row.cloud_url !== cloudUrl)
    return null;
  return { info: readInfo(row.instance_id, row.info), verifiedAt: new Date(row.verified_at) };
}

/**
 * The cloud's description of this instance, reduced to the fields the API answers. AYON's cloud may send either
 * camelCase or snake_case names; anything of the wrong type is left out rather than passed on.
 */
function readInfo(instanceId: string, answer: Record<string, unknown>): Omit<CloudInfo, 'connected'> {
  const pick = (camel: string, snake: string) => answer[camel] ?? answer[snake];
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const subscriptions: CloudSubscription[] = [];
  const listed = answer.subscriptions;
  if (Array.isArray(listed)) {
    for (const item of listed) {
      if (!item || typeof item !== 'object') continue;
      const entry = item as Record<string, unknown>;
      const name = text(entry.name);
      const productType = text(entry.productType ?? entry.product_type);
      if (name === null || productType === null) continue;
      subscriptions.push({ name, productType, trialEnd: text(entry.trialEnd ?? entry.trial_end) });
    }
  }
  return {
    instanceId,
    instanceName: text(pick('instanceName', 'instance_name')),
    orgId: text(pick('orgId', 'org_id')),
    orgName: text(pick('orgName', 'org_name')),
    orgTitle: text(pick('orgTitle', 'org_title')),
    managed: pick('managed', 'managed') === true,
    collectSaturatedMetrics: pick('collectSaturatedMetrics', 'collect_saturated_metrics') === true,
    subscriptions,
  };
}
