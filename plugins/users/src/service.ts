import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import {
  Conflict,
  NotFound,
  isManagerOrAbove,
  isoTime,
  mergePatch,
  newId,
  presentUser,
  type Database,
  type EventBus,
  type RequestUser,
  type Static,
  type User,
  type UserRecord,
} from '@pipewright/sdk';
import type { AuthService } from '@pipewright/plugin-auth/api';
import type { ListedUser, StudioPermissions, UserDirectory, UserListing, UserRenameHook } from './api.js';
import { listUsersPage } from './listing.js';
import { requireUserWithinLimits } from './limits.js';
import { toRecord, type ApiKey } from './rows.js';
import { userEvent, type ChangedBy } from './user-event.js';
import {
  hashApiKey,
  hashPassword,
  previewApiKey,
  requirePasswordLength,
  verifyDecoy,
  verifyPassword,
} from './passwords.js';

type Json = Record<string, unknown>;

const byName = (name: string) => sql<boolean>`lower(name) = ${name.toLowerCase()}`;

function uniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

const studioPermissions = (allowed: boolean): StudioPermissions => ({
  enabled: allowed,
  create_projects: allowed,
  list_all_users: allowed,
});

/** The studio's users, with their passwords and API keys. */
export class UserService implements UserDirectory {
  private studioPermissionSource: ((caller: RequestUser) => Promise<StudioPermissions>) | null = null;
  private readonly renameHooks: UserRenameHook[] = [];

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly auth: AuthService,
    private readonly passwordMinLength: number,
  ) {}

  /** 422 at loc when a password breaks the operator's rules (its length, PASSWORD_MIN_LENGTH). */
  requirePassword(password: string, loc: (string | number)[]): void {
    requirePasswordLength(password, this.passwordMinLength, loc);
  }

  setStudioPermissionSource(source: (caller: RequestUser) => Promise<StudioPermissions>): void {
    this.studioPermissionSource = source;
  }

  async studioPermissions(caller: RequestUser): Promise<StudioPermissions> {
    if (isManagerOrAbove(caller)) return studioPermissions(true);
    return this.studioPermissionSource ? this.studioPermissionSource(caller) : studioPermissions(false);
  }

  async get(name: string): Promise<UserRecord | null> {
    const row = await this.db.selectFrom('users').selectAll().where(byName(name)).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async require(name: string): Promise<UserRecord> {
    const user = await this.get(name);
    if (!user) throw new NotFound(`User ${name} not found`);
    return user;
  }

  async list(filter: { active?: boolean } = {}): Promise<UserRecord[]> {
    let query = this.db.selectFrom('users').selectAll().orderBy('name');
    if (filter.active !== undefined) query = query.where('active', '=', filter.active);
    return (await query.execute()).map(toRecord);
  }

  listPage(listing: UserListing): Promise<ListedUser[]> {
    return listUsersPage(this.db, listing);
  }

  async authenticate(name: string, password: string): Promise<UserRecord | null> {
    const row = await this.db.selectFrom('users').selectAll().where(byName(name)).executeTakeFirst();
    // Service users authenticate with API keys only; users without a password (SSO, invited) cannot log in here.
    if (!row || !row.active || !row.password_hash || row.data.isService === true) {
      await verifyDecoy(password);
      return null;
    }
    return (await verifyPassword(row.password_hash, password)) ? toRecord(row) : null;
  }

  /** True when password is the user's password (whether or not the user may log in with it now). */
  async isPassword(name: string, password: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('password_hash')
      .where(byName(name))
      .executeTakeFirst();
    if (!row?.password_hash) {
      await verifyDecoy(password);
      return false;
    }
    return verifyPassword(row.password_hash, password);
  }

  async findByApiKey(key: string): Promise<UserRecord | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.name', 'api_keys.user_name')
      .selectAll('users')
      .where('api_keys.key_hash', '=', hashApiKey(key))
      .where((eb) =>
        eb.or([eb('api_keys.expires_at', 'is', null), eb('api_keys.expires_at', '>', sql<Date>`now()`)]),
      )
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async hasAdmin(): Promise<boolean> {
    return (await this.activeAdmins()) > 0;
  }

  /** How many active administrators there are, leaving out the one named `except`. */
  async activeAdmins(except?: string): Promise<number> {
    let query = this.db
      .selectFrom('users')
      .select(sql<number>`count(*)`.as('n'))
      .where('active', '=', true)
      .where(sql<boolean>`data @> '{"isAdmin": true}'`);
    if (except !== undefined) query = query.where(sql<boolean>`lower(name) <> ${except.toLowerCase()}`);
    return (await query.executeTakeFirstOrThrow()).n;
  }

  async create(
    user: {
      name: string;
      password?: string;
      attrib?: Json;
      data?: Json;
      active?: boolean;
      apiKey?: string;
    },
    by?: ChangedBy,
  ): Promise<UserRecord> {
    const attrib = mergePatch({}, user.attrib ?? {});
    requireUserWithinLimits({ attrib, data: user.data ?? {} });
    const passwordHash = user.password ? await hashPassword(user.password) : null;
    // The user and its key are written together, in the caller's unit of work when there is one.
    return this.db.transaction().execute(async () => {
      const inserted = await this.db
        .insertInto('users')
        .values({
          name: user.name,
          active: user.active ?? true,
          attrib: JSON.stringify(attrib),
          data: JSON.stringify(user.data ?? {}),
          password_hash: passwordHash,
        })
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted) throw new Conflict(`User ${user.name} already exists`, 'user-exists');
      if (user.apiKey) await this.insertApiKey(inserted.name, { label: 'default', key: user.apiKey });
      await this.events.emit(userEvent('user.created', inserted.name, by));
      return toRecord(inserted);
    });
  }

  /** Change a user; the event names the fields changed (by default the patch's keys). */
  async update(
    name: string,
    patch: { active?: boolean; attrib?: Json; data?: Json },
    by?: ChangedBy & { fields?: string[] },
  ): Promise<UserRecord> {
    // Joins the caller's unit of work when there is one (access groups of several users change together).
    const updated = await this.db.transaction().execute(async () => {
      const current = await this.require(name);
      const attrib = mergePatch(current.attrib, patch.attrib);
      const data = mergePatch(current.data, patch.data);
      requireUserWithinLimits({ attrib, data });
      const row = await this.db
        .updateTable('users')
        .set({
          active: patch.active ?? current.active,
          attrib: JSON.stringify(attrib),
          data: JSON.stringify(data),
          updated_at: sql`now()`,
        })
        .where('name', '=', current.name)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (!row.active) await this.auth.closeSessions(row.name);
      const fields = by?.fields ?? Object.keys(patch);
      await this.events.emit(userEvent('user.updated', row.name, by, { fields }));
      return toRecord(row);
    });
    await this.auth.userChanged();
    return updated;
  }

  async remove(name: string, by?: ChangedBy): Promise<void> {
    await this.db.transaction().execute(async () => {
      const user = await this.require(name);
      await this.db.deleteFrom('users').where('name', '=', user.name).execute();
      await this.auth.closeSessions(user.name);
      await this.events.emit(userEvent('user.deleted', user.name, by));
    });
  }

  /** Change a password and end the user's other sessions (keeping the one that made the change). */
  async setPassword(name: string, password: string, keepSession: string | null): Promise<void> {
    const user = await this.require(name);
    await this.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password), updated_at: sql`now()` })
      .where('name', '=', user.name)
      .execute();
    await this.auth.closeSessions(user.name, { except: keepSession });
  }

  onRename(hook: UserRenameHook): void {
    this.renameHooks.push(hook);
  }

  /**
   * Rename a user; sessions, API keys and whatever other addons hold of the user (their rename hooks) follow in
   * the same transaction. A name taken in any letter case is refused.
   */
  async rename(oldName: string, newName: string, by?: ChangedBy): Promise<UserRecord> {
    return this.db.transaction().execute(async () => {
      const user = await this.require(oldName);
      const taken = await this.get(newName);
      if (taken && taken.name !== user.name)
        throw new Conflict(`User ${newName} already exists`, 'user-exists');
      try {
        const row = await this.db
          .updateTable('users')
          .set({ name: newName, updated_at: sql`now()` })
          .where('name', '=', user.name)
          .returningAll()
          .executeTakeFirstOrThrow();
        await this.auth.renameSessions(user.name, newName);
        for (const hook of this.renameHooks) await hook(user.name, newName);
        await this.events.emit(userEvent('user.renamed', newName, by, { oldName: user.name }));
        return toRecord(row);
      } catch (error) {
        if (uniqueViolation(error)) throw new Conflict(`User ${newName} already exists`, 'user-exists');
        throw error;
      }
    });
  }

  async setFrontendPreferences(name: string, preferences: Json): Promise<void> {
    // data merges deeply, so the preferences patch (with its nulls) applies inside frontendPreferences.
    await this.update(name, { data: { frontendPreferences: preferences } });
  }

  async listApiKeys(name: string): Promise<ApiKey[]> {
    const user = await this.require(name);
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_name', '=', user.name)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      label: row.label,
      preview: row.preview,
      created: isoTime(row.created_at),
      expires: row.expires_at ? isoTime(row.expires_at) : null,
    }));
  }

  /** Add a key; the caller may choose it (AYON clients do), otherwise one is generated and shown once. */
  async addApiKey(
    name: string,
    input: { label: string; key?: string; expires?: string },
  ): Promise<{ id: string; key: string }> {
    const user = await this.require(name);
    const key = input.key ?? randomBytes(16).toString('hex');
    const id = await this.insertApiKey(user.name, { ...input, key });
    await this.auth.userChanged();
    return { id, key };
  }

  /** Give a service user the one key AYON knows it by: it replaces the key labelled default. */
  async setDefaultApiKey(name: string, key: string): Promise<void> {
    const user = await this.require(name);
    await this.db.transaction().execute(async () => {
      await this.db
        .deleteFrom('api_keys')
        .where('user_name', '=', user.name)
        .where('label', '=', 'default')
        .execute();
      await this.insertApiKey(user.name, { label: 'default', key });
    });
    await this.auth.userChanged();
  }

  async updateApiKey(
    name: string,
    id: string,
    patch: { label?: string; expires?: string | null },
  ): Promise<void> {
    const user = await this.require(name);
    const changes: Json = {};
    if (patch.label !== undefined) changes.label = patch.label;
    if (patch.expires !== undefined)
      changes.expires_at = patch.expires === null ? null : new Date(patch.expires);
    if (Object.keys(changes).length === 0) return;
    const result = await this.db
      .updateTable('api_keys')
      .set(changes)
      .where('id', '=', id)
      .where('user_name', '=', user.name)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFound(`API key ${id} of ${user.name} not found`);
    await this.auth.userChanged();
  }

  async removeApiKey(name: string, id: string): Promise<void> {
    const user = await this.require(name);
    const result = await this.db
      .deleteFrom('api_keys')
      .where('id', '=', id)
      .where('user_name', '=', user.name)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NotFound(`API key ${id} of ${user.name} not found`);
    await this.auth.userChanged();
  }

  present(user: UserRecord): Static<typeof User> {
    return presentUser(user);
  }

  /**
   * A user as the users list shows them to a manager: everything but their web-app preferences, which are theirs
   * alone and would make the list as heavy as everyone's preferences together.
   */
  presentInList(user: UserRecord): Static<typeof User> {
    const { frontendPreferences: _, ...data } = user.data;
    return { ...this.present(user), data };
  }

  /** What other users may see of someone: who they are, not their settings or access. */
  presentPublic(user: UserRecord): Static<typeof User> {
    const { fullName, email, avatarUrl } = user.attrib;
    const roles = ['isAdmin', 'isManager', 'isService', 'isGuest'].filter((k) => user.data[k] === true);
    return {
      ...this.present(user),
      attrib: { fullName, email, avatarUrl },
      data: Object.fromEntries(roles.map((k) => [k, true])),
    };
  }

  private async insertApiKey(userName: string, input: { label: string; key: string; expires?: string }) {
    const id = newId();
    const inserted = await this.db
      .insertInto('api_keys')
      .values({
        id,
        user_name: userName,
        label: input.label,
        key_hash: hashApiKey(input.key),
        preview: previewApiKey(input.key),
        expires_at: input.expires ? new Date(input.expires) : null,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw new Conflict('This API key is already in use', 'api-key-exists');
    return id;
  }
}
