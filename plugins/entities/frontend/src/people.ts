import { useEffect, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { Person } from './Assignees';

/** The active users the overview offers (assignees, version authors). */
export function usePeople(client: PipewrightClient): Person[] {
  const [people, setPeople] = useState<Person[]>([]);
  useEffect(() => {
    // Managers see every user; others only themselves, which is also whom they may assign.
    client
      .GET('/api/users')
      .then((answer) =>
        setPeople(
          answer.users
            .filter((u) => u.active !== false)
            .map((u) => ({
              name: u.name,
              fullName: (u.attrib as { fullName?: string | null } | undefined)?.fullName ?? null,
            })),
        ),
      )
      .catch(() => setPeople([]));
  }, [client]);
  return people;
}
