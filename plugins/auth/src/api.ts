import { createServiceRef } from '@pipewright/sdk';
import type { RequestUser, Static, User, UserRecord } from '@pipewright/sdk';
import type { FastifyRequest } from 'fastify';

/** Where the auth addon finds users: the extension point the users addon (or an LDAP/SSO addon) fills. */
export interface UserSource {
  /** Look a user up by name, case-insensitively. */
  get(name: string): Promise<UserRecord | null>;
  /** The user whose password this is, if the user may log in with a password. */
  authenticate(name: string, password: string): Promise<UserRecord | null>;
  /** The active user owning this API key, if the key is valid and not expired. */
  findByApiKey(key: string): Promise<UserRecord | null>;
  /** The user as the API shows it to the user themself (presentUser unless the source hides more). */
  present(user: UserRecord): Static<typeof User>;
}

/** What login, onboarding and password reset answer: AYON's LoginResponseModel, its unset fields null. */
export interface LoginResponse {
  detail: string;
  error: string | null;
  token: string;
  user: Record<string, unknown>;
  /** Where the web app should go next (a login link may name it). */
  redirectUrl: string | null;
}

/** Information about the client, taken from the request (ip, x-ayon-site-id, x-ayon-platform, ...). */
export type ClientInfo = Record<string, string | null>;

/** Provided by the auth addon: sessions that outlive a process and are shared by all of them. */
export interface AuthService {
  /** Register the source of users; exactly one addon does this. */
  setUserSource(source: UserSource): void;
  /** Open a session for a user, remembering the client that asked, and answer as a successful login does. */
  login(user: UserRecord, request: FastifyRequest): Promise<LoginResponse>;
  /**
   * End every session of a user (deactivated, deleted, password changed), optionally keeping one. Inside a unit
   * of work it joins the transaction, so the sessions end only if the change that ends them commits.
   */
  closeSessions(userName: string, options?: { except?: string | null }): Promise<void>;
  /** Carry a user's sessions over to the user's new name (inside the rename's unit of work). */
  renameSessions(oldName: string, newName: string): Promise<void>;
  /** A user's record or API keys changed: identities the server remembers are looked up again. */
  userChanged(): Promise<void>;
  /** The request identity of a stored user. */
  toRequestUser(user: UserRecord, session: { sessionId: string | null; isApiKey: boolean }): RequestUser;
}

/**
 * Links sent by mail that stand for a user once: a password reset, a login link (GET /api/auth/tokenauth). One
 * mechanism for all of them, in PostgreSQL so that any server process can redeem a token another one issued.
 */
export interface OneTimeTokens {
  /**
   * Issue a token for a user, valid for ttlSeconds; answers the token, which is never stored (only its hash is).
   * With replace, the user's earlier tokens of this purpose stop working: only the newest link counts.
   */
  issue(
    purpose: string,
    userName: string,
    options: { ttlSeconds: number; data?: Record<string, unknown>; replace?: boolean },
  ): Promise<string>;
  /** The token if it is live, without using it up. */
  peek(purpose: string, token: string): Promise<OneTimeToken | null>;
  /** Use the token up: the first caller gets it, later ones (in any process) get null, as do expired tokens. */
  consume(purpose: string, token: string): Promise<OneTimeToken | null>;
  /** When the newest live token of this purpose was issued to the user, or null. */
  lastIssued(purpose: string, userName: string): Promise<Date | null>;
}

/**
 * Guessing passwords, slowed down. Two counts, because the two attacks differ:
 * - per account: after a few failures for one account, its next guess must wait a short time that doubles with
 *   each further failure (1 s, 2 s, 4 s, ... up to a minute). A user who mistypes a few times barely notices; a
 *   guesser gets about one try a minute, whichever addresses the guesses come from.
 * - per address: a budget of failures across all accounts, generous enough for a studio behind one NAT address,
 *   but it stops one address trying a common password on every account (a spray). Accounts that logged in from
 *   that address lately are not held back by it, so a spray from inside a studio does not lock out its artists.
 * Only failures count, and a success clears only its own account's count: logging in to your account never
 * resets what an attacker did to someone else's, and the address budget is never reset by a success.
 * An account's back-off is also kept apart for each address it logged in from lately, so an attacker elsewhere
 * cannot keep its owner waiting at their usual desk.
 *
 * Kept in each server process's memory: with N processes behind a load balancer a guesser gets at most N times
 * the budget, still about one guess a minute per account and process. A restart forgets the counts.
 */
export interface PasswordGuesses {
  /**
   * Before a password is checked: 429 when this account or this address must wait. Otherwise the guess counts as
   * a failure at once (so parallel guesses cannot all slip past the check) until the answer says it was right.
   */
  attempt(account: string, address: string): PasswordGuess;
}

/** A token as issued: who it is for, what for, and what the issuer attached (where to go next, ...). */
export interface OneTimeToken {
  purpose: string;
  userName: string;
  data: Record<string, unknown>;
  createdAt: Date;
  expiresAt: Date;
}

/** One guess under way. */
export interface PasswordGuess {
  /** The password was right: the account's failures are forgotten and the account is known at the address. */
  succeeded(): void;
}

/** The auth service of the auth addon. */
export const authRef = createServiceRef<AuthService>({ addon: 'auth', id: 'auth' });

/** The oneTimeTokens service of the auth addon. */
export const oneTimeTokensRef = createServiceRef<OneTimeTokens>({ addon: 'auth', id: 'oneTimeTokens' });

/** The passwordGuesses service of the auth addon. */
export const passwordGuessesRef = createServiceRef<PasswordGuesses>({ addon: 'auth', id: 'passwordGuesses' });
