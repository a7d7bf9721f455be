import { sql } from 'kysely';
import { Conflict, type Database, type EventBus, type UserRecord } from '@pipewright/sdk';
import type { UserDirectory } from '@pipewright/plugin-users/api';

// Serialises initialize calls of every server process, so two people racing through the form make one admin.
const INITIALIZE_LOCK = 7_140_002;

/** What the setup form sends to make the first administrator. */
export interface FirstAdmin {
  adminName: string;
  adminPassword: string;
  adminFullName?: string | null;
  adminEmail?: string | null;
}

/** The server's first-run state: whether the setup wizard is done, and the making of the first administrator. */
export class OnboardingService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly users: UserDirectory,
  ) {}

  async finished(): Promise<boolean> {
    const state = await this.db.selectFrom('onboarding_state').select('finished').executeTakeFirstOrThrow();
    return state.finished;
  }

  async setFinished(finished: boolean): Promise<void> {
    await this.db
      .updateTable('onboarding_state')
      .set({ finished, updated_at: sql`now()` })
      .execute();
  }

  /** Create the first administrator, and its server.initialized event, in one unit; 409 once one exists. */
  async initialize({ adminName, adminPassword, adminFullName, adminEmail }: FirstAdmin): Promise<UserRecord> {
    return this.db.transaction().execute(async () => {
      await sql`SELECT pg_advisory_xact_lock(${INITIALIZE_LOCK})`.execute(this.db);
      if (await this.users.hasAdmin())
        throw new Conflict(
          'The server is already initialized: an administrator exists',
          'already-initialized',
        );
      const attrib = {
        ...(adminFullName ? { fullName: adminFullName } : {}),
        ...(adminEmail ? { email: adminEmail } : {}),
      };
      const admin = await this.users.create({
        name: adminName,
        password: adminPassword,
        attrib,
        data: { isAdmin: true },
      });
      await this.events.emit({
        topic: 'server.initialized',
        user: admin.name,
        description: `${admin.name} created as the first administrator`,
      });
      return admin;
    });
  }
}
