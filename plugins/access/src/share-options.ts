import type { RequestUser, UserRecord } from '@pipewright/sdk';
import { groupMapOf, sameName } from './user-groups.js';

// Whom a caller may share with (GET /api/share): everyone at once, and each active person they can see.

/**
 * The share options among the active users: all of them when the caller sees everyone, else those who share a
 * project with the caller; never services nor the caller.
 */
export function shareOptions(caller: RequestUser, everyone: UserRecord[], seeAll: boolean) {
  const mine = Object.keys(groupMapOf(caller.accessGroups)).map((p) => p.toLowerCase());
  const visible = everyone.filter((user) => {
    if (user.data.isService === true || sameName(user.name, caller.name)) return false;
    if (seeAll) return true;
    // Managers and admins reach every project, so they share one with anyone who has a project.
    if (user.data.isAdmin === true || user.data.isManager === true) return mine.length > 0;
    const theirs = groupMapOf(user.data.accessGroups);
    return Object.entries(theirs).some(
      ([project, groups]) => groups.length && mine.includes(project.toLowerCase()),
    );
  });
  return {
    options: [
      { shareType: 'global' as const, value: '__everyone__', name: 'everyone', label: 'Everyone' },
      ...visible.map((user) => ({
        shareType: 'user' as const,
        value: user.name,
        name: user.name,
        label:
          typeof user.attrib.fullName === 'string' && user.attrib.fullName ? user.attrib.fullName : user.name,
      })),
    ],
  };
}
