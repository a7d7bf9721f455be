import { AsyncLocalStorage } from 'node:async_hooks';
import { Forbidden, Unauthorized } from './errors.js';

/** The caller of a request, as the auth addon resolved it. */
export interface RequestUser {
  name: string;
  isAdmin: boolean;
  isManager: boolean;
  isService: boolean;
  isGuest: boolean;
  /** Project name -> access group names (normal users reach a project only through these). */
  accessGroups: Record<string, string[]>;
  /** The session the request came with (absent for a fresh API-key check). */
  sessionId: string | null;
  isApiKey: boolean;
}

/** A request whose path names a project (project_name), as route handlers receive it. */
export interface ProjectRequest {
  caller: RequestUser;
  params: { project_name: string };
}

/** Who sent a change: x-sender and x-sender-type, passed on to events so a client can ignore its own echoes. */
export interface Sender {
  sender: string | null;
  senderType: string | null;
  /** The program that sent the request (its User-Agent), as field history names it; events leave it out. */
  client?: string | null;
}

// The sender travels with the request, as the unit of work does: the core runs each request's hooks and handler
// inside its sender's context, and the event bus stamps every event emitted there with it, so no service passes
// it along. Subscribers run outside any request's context: what they emit in turn has no sender unless they name one.

const senders = new AsyncLocalStorage<Sender>();

const NO_SENDER: Sender = { sender: null, senderType: null };

/**
 * The client behind the change this async context makes: the x-sender headers of the request being answered
 * (senderType "api" by default); outside a request, no sender at all.
 */
export function currentSender(): Sender {
  return senders.getStore() ?? NO_SENDER;
}

/** Run fn as sent by sender: what it emits carries the sender (the core does this around every request). */
export function runAsSender<T>(sender: Sender, fn: () => T): T {
  return senders.run(sender, fn);
}

/** Run fn outside any request's sender (event subscribers: their own events name their sender, or have none). */
export function runWithoutSender<T>(fn: () => T): T {
  return senders.exit(fn);
}

/**
 * Who may call a route beyond any logged-in user. A route declares it in its options, `config: { access: 'admin' }`,
 * and the core refuses everyone else with 403 after the input is validated, as AYON's handlers check it.
 */
export type RouteAccess = 'manager' | 'admin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, or null: for a route open to anonymous callers (security: []) that treats them apart. */
    user: RequestUser | null;
    /**
     * The logged-in caller, as routes read it: the core refuses anonymous callers under /api before their input is
     * read, so it is there; reading it on an anonymous request answers 401 (requireUser).
     */
    readonly caller: RequestUser;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

interface HasUser {
  user: RequestUser | null;
}

/**
 * The logged-in user, or 401. Under /api the core already refuses anonymous callers, before their input is
 * validated, unless the route's schema declares `security: []` (open to everyone, like login and /api/info).
 */
export function requireUser(req: HasUser): RequestUser {
  if (!req.user) throw new Unauthorized('Not logged in');
  return req.user;
}

/** The caller if the access level admits them: 401 without one, 403 for a caller below it. */
export function requireAccess(req: HasUser, access: RouteAccess): RequestUser {
  const user = requireUser(req);
  if (access === 'manager' && !isManagerOrAbove(user)) throw new Forbidden('Managers only');
  if (access === 'admin' && !(user.isAdmin || user.isService)) throw new Forbidden('Administrators only');
  return user;
}

/** A manager or an admin (service users count as both), or 401/403: for a check that depends on the input. */
export function requireManager(req: HasUser): RequestUser {
  return requireAccess(req, 'manager');
}

/** An admin (or a service user), or 401/403: for a check that depends on the input. */
export function requireAdmin(req: HasUser): RequestUser {
  return requireAccess(req, 'admin');
}

/** True for managers, admins and service users. */
export function isManagerOrAbove(user: RequestUser): boolean {
  return user.isAdmin || user.isManager || user.isService;
}
