import { Conflict, Forbidden, isManagerOrAbove, type RequestUser, type UserRecord } from '@pipewright/sdk';

/** The caller is this user (names are case-insensitive). */
export const isSelf = (caller: RequestUser, name: string) => caller.name.toLowerCase() === name.toLowerCase();
const isAdminCaller = (caller: RequestUser) => caller.isAdmin || caller.isService;

/** The user themself or an administrator (passwords, API keys, preferences). */
export function requireSelfOrAdmin(caller: RequestUser, target: string): void {
  if (!isSelf(caller, target) && !isAdminCaller(caller))
    throw new Forbidden('Only the user or an administrator may do this');
}

/** Managers manage users, but only administrators manage administrators. */
export function requireManagerOf(caller: RequestUser, target: UserRecord): void {
  if (!isManagerOrAbove(caller)) throw new Forbidden('Managers only');
  if (target.data.isAdmin === true && !isAdminCaller(caller))
    throw new Forbidden('Only administrators may change an administrator');
}

/** Making someone an administrator or a service user is for administrators. */
export function requireRoleGrant(caller: RequestUser, data: Record<string, unknown> | undefined): void {
  const grantsPower = data?.isAdmin !== undefined || data?.isService !== undefined;
  if (grantsPower && !isAdminCaller(caller))
    throw new Forbidden('Only administrators may grant or revoke the admin and service roles');
}

/** A user may edit their own attributes; everything else about an account is a manager's business. */
export function requirePatchAllowed(
  caller: RequestUser,
  target: UserRecord,
  patch: { active?: unknown; data?: Record<string, unknown> },
) {
  if (isSelf(caller, target.name) && !isManagerOrAbove(caller)) {
    if (patch.active !== undefined || patch.data !== undefined) {
      throw new Forbidden(
        'Users may change their own attributes only; roles and activation are set by managers',
      );
    }
    return;
  }
  requireManagerOf(caller, target);
  requireRoleGrant(caller, patch.data);
}

/** Never leave the studio without an active administrator: nobody could manage it any more. */
export function refuseLosingLastAdmin(target: UserRecord, stillAdmin: boolean, otherAdmins: number): void {
  if (target.data.isAdmin === true && target.active && !stillAdmin && otherAdmins === 0) {
    throw new Conflict(`${target.name} is the last active administrator`, 'last-admin');
  }
}
