import { sql } from 'kysely';
import { NotFound, type Database, type EventBus } from '@pipewright/sdk';
import type { FastifyBaseLogger } from 'fastify';
import { UnreadableSecret, type SecretCipher } from './cipher.js';
import type { SecretStore } from './api.js';

/** A secret opened for an admin: the value, or null with the reason it could not be read. */
export interface RevealedSecret {
  name: string;
  value: string | null;
  detail?: string;
}

const UNREADABLE =
  'The value cannot be decrypted with the current key (it was written with another PIPEWRIGHT_SECRETS_KEY or secrets.key, or altered); set it again to replace it';

interface Row {
  name: string;
  value_encrypted: string;
}

export class SecretService implements SecretStore {
  constructor(
    private readonly db: Database,
    private readonly cipher: SecretCipher,
    private readonly events: EventBus,
    private readonly log: FastifyBaseLogger,
  ) {}

  async names(): Promise<string[]> {
    const rows = await this.db.selectFrom('secrets').select('name').orderBy('name').execute();
    return rows.map((row) => row.name as string);
  }

  async list(): Promise<RevealedSecret[]> {
    const rows: Row[] = await this.db
      .selectFrom('secrets')
      .select(['name', 'value_encrypted'])
      .orderBy('name')
      .execute();
    return rows.map((row) => this.open(row));
  }

  /** The secret, or 404. */
  async require(name: string): Promise<RevealedSecret> {
    const row: Row | undefined = await this.db
      .selectFrom('secrets')
      .select(['name', 'value_encrypted'])
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) throw new NotFound(`Secret ${name} not found`);
    return this.open(row);
  }

  async get(name: string): Promise<string | null> {
    try {
      return (await this.require(name)).value;
    } catch (error) {
      if (error instanceof NotFound) return null;
      throw error;
    }
  }

  async set(name: string, value: string, actor: string): Promise<boolean> {
    const encrypted = this.cipher.encrypt(name, value);
    return this.db.transaction().execute(async () => {
      // xmax = 0 only on a freshly inserted row: tells an insert from an update in one statement.
      const result = await sql<{ inserted: boolean }>`
        INSERT INTO secrets (name, value_encrypted) VALUES (${name}, ${encrypted})
        ON CONFLICT (name) DO UPDATE SET value_encrypted = EXCLUDED.value_encrypted, updated_at = now()
        RETURNING (xmax = 0) AS inserted`.execute(this.db);
      const created = result.rows[0].inserted;
      await this.changed('secret.updated', name, actor, { created });
      return !created;
    });
  }

  async remove(name: string, actor: string): Promise<void> {
    await this.db.transaction().execute(async () => {
      const deleted = await this.db.deleteFrom('secrets').where('name', '=', name).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw new NotFound(`Secret ${name} not found`);
      await this.changed('secret.deleted', name, actor);
    });
  }

  /**
   * The event of a change, in the change's unit of work. The name goes in the payload, which is stored but never
   * broadcast: every logged-in client hears broadcasts, while only managers may know which secrets exist. The value
   * never goes anywhere.
   */
  private changed(
    topic: 'secret.updated' | 'secret.deleted',
    name: string,
    actor: string,
    extra: Record<string, unknown> = {},
  ) {
    return this.events.emit({
      topic,
      user: actor,
      description: topic === 'secret.deleted' ? 'Secret deleted' : 'Secret updated',
      payload: { secretName: name, ...extra },
    });
  }

  private open(row: Row): RevealedSecret {
    try {
      return { name: row.name, value: this.cipher.decrypt(row.name, row.value_encrypted) };
    } catch (error) {
      if (!(error instanceof UnreadableSecret)) throw error;
      // The name and the reason only: nothing derived from the stored value reaches the log.
      this.log.warn(
        { secret: row.name, reason: error.message },
        'A secret cannot be decrypted with the current key',
      );
      return { name: row.name, value: null, detail: UNREADABLE };
    }
  }
}
