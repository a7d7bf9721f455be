import type { PipewrightClient } from '@pipewright/sdk/client';
import { useLoaded } from '@pipewright/sdk/ui';
import type { Person } from './Assignees';

const NOBODY: Person[] = [];

/** The active users the overview offers (assignees, version authors). */
export function usePeople(client: PipewrightClient): Person[] {
  // Managers see every user; others only themselves, which is also whom they may assign.
  const people = useLoaded(
    () =>
      client
        .GET('/api/users')
        .then((answer) =>
          answer.users
            .filter((u) => u.active !== false)
            .map((u) => ({
              name: u.name,
              fullName: (u.attrib as { fullName?: string | null } | undefined)?.fullName ?? null,
            })),
        )
        .catch(() => NOBODY),
    [client],
  );
  return people.data ?? NOBODY;
}
