import type { FastifyRequest } from 'fastify';
import type { Database, EventBus, RequestUser, UserRecord } from '@pipewright/sdk';
import type { AuthService, LoginResponse, UserSource } from './api.js';
import { clientInfo, readCredentials } from './credentials.js';
import type { IdentityMemory } from './identity-memory.js';
import type { OneTimeTokenStore } from './one-time-tokens.js';
import type { SessionStore } from './sessions.js';

const flag = (data: Record<string, unknown>, key: string) => data[key] === true;

/** Sessions, identities and the one user source the server trusts. */
export class Authenticator implements AuthService {
  private source: UserSource | null = null;

  constructor(
    private readonly db: Database,
    private readonly sessions: SessionStore,
    private readonly memory: IdentityMemory,
    private readonly events: EventBus,
    private readonly tokens: OneTimeTokenStore,
  ) {}

  setUserSource(source: UserSource): void {
    if (this.source) throw new Error('A user source is already registered with the auth addon');
    this.source = source;
  }

  /** The registered source; without one nobody can log in. */
  get users(): UserSource | null {
    return this.source;
  }

  async login(user: UserRecord, request: FastifyRequest): Promise<LoginResponse> {
    const { token, presented } = await this.openSession(user, request);
    return { detail: `Logged in as ${user.name}`, error: null, token, user: presented, redirectUrl: null };
  }

  /** Open a session for a user (a login, or one the user or a service asks for), recorded as an auth.login event. */
  async openSession(user: UserRecord, request: FastifyRequest, description = `${user.name} logged in`) {
    const info = clientInfo(request);
    const { token, session } = await this.db.transaction().execute(async () => {
      const opened = await this.sessions.open(user.name, info);
      await this.events.emit({
        topic: 'auth.login',
        user: user.name,
        description,
        summary: { ip: info.ip ?? null },
      });
      return opened;
    });
    return { token, session, presented: this.source!.present(user) };
  }

  /**
   * A mailed link (password reset, login link) is a session waiting to be opened: whatever ends the user's sessions
   * (deletion, deactivation, a new password) makes those links useless too.
   */
  async closeSessions(userName: string, options: { except?: string | null } = {}): Promise<void> {
    await this.sessions.closeAll(userName, options.except ?? null);
    await this.tokens.revokeAll(userName);
  }

  async renameSessions(oldName: string, newName: string): Promise<void> {
    await this.sessions.rename(oldName, newName);
    await this.tokens.rename(oldName, newName);
  }

  toRequestUser(user: UserRecord, session: { sessionId: string | null; isApiKey: boolean }): RequestUser {
    const accessGroups = (user.data.accessGroups ?? {}) as Record<string, string[]>;
    return {
      name: user.name,
      isAdmin: flag(user.data, 'isAdmin'),
      isManager: flag(user.data, 'isManager'),
      isService: flag(user.data, 'isService'),
      isGuest: flag(user.data, 'isGuest'),
      accessGroups,
      sessionId: session.sessionId,
      isApiKey: session.isApiKey,
    };
  }

  userChanged(): Promise<void> {
    return this.memory.forget();
  }

  /**
   * Who is calling: a live session or a valid API key of an active user, else nobody. Answered at once for a
   * credential seen recently, which is almost every request; a promise when it has to be looked up.
   */
  identify(request: FastifyRequest): RequestUser | null | Promise<RequestUser | null> {
    const credentials = readCredentials(request);
    if (!credentials || !this.source) return null;
    const asUser = request.headers['x-as-user'];
    const key = `${credentials.kind}\n${credentials.kind === 'apiKey' ? credentials.key : credentials.token}\n${asUser ?? ''}`;
    return this.memory.recall(key) ?? this.lookUpAndRemember(request, credentials, key);
  }

  private async lookUpAndRemember(
    request: FastifyRequest,
    credentials: NonNullable<ReturnType<typeof readCredentials>>,
    key: string,
  ): Promise<RequestUser | null> {
    const caller = await this.lookup(request, credentials);
    if (caller) this.memory.remember(key, caller);
    return caller;
  }

  private async lookup(
    request: FastifyRequest,
    credentials: NonNullable<ReturnType<typeof readCredentials>>,
  ): Promise<RequestUser | null> {
    if (!this.source) return null;
    let caller: RequestUser | null = null;
    if (credentials.kind === 'apiKey') {
      const user = await this.source.findByApiKey(credentials.key);
      if (user?.active) caller = this.toRequestUser(user, { sessionId: null, isApiKey: true });
    } else {
      const session = await this.sessions.resolve(credentials.token);
      const user = session ? await this.source.get(session.userName) : null;
      if (session && user?.active)
        caller = this.toRequestUser(user, { sessionId: session.id, isApiKey: session.isApiKey });
    }
    // Service users act on behalf of artists (a farm publishing a render) with x-as-user.
    const asUser = request.headers['x-as-user'];
    if (caller?.isService && typeof asUser === 'string' && asUser) {
      const user = await this.source.get(asUser);
      return user?.active
        ? this.toRequestUser(user, { sessionId: caller.sessionId, isApiKey: caller.isApiKey })
        : null;
    }
    return caller;
  }
}
