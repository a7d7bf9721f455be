import { useClient } from '@pipewright/sdk/ui';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { AccessSummary } from './AccessSummary';
import { roleOf, type UserRecord } from './routes';
import { UserAccessSection } from './UserAccessSection';
import { UserAccountSection } from './UserAccountSection';
import { UserProfileSection } from './UserProfileSection';

/** One user: profile and role, access groups per project, activation and password. */
export function UserEditor({
  caller,
  user,
  projects,
  groups,
  onChanged,
  onClose,
}: {
  caller: ScreenUser;
  user: UserRecord;
  projects: { name: string; code: string }[];
  groups: string[];
  onChanged(): void;
  onClose(): void;
}) {
  const client = useClient();
  // Only administrators change administrators; the server refuses it anyway, the form says so first.
  const locked = roleOf(user) === 'admin' && !caller.isAdmin;
  const section = { client, user, locked, onChanged };
  return (
    <aside className="pw-panel us-side" aria-label={`User ${user.name}`}>
      <header className="pw-panel-header">
        <h2>{user.name}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {locked && <p className="notice">Only administrators can change an administrator.</p>}
      <AccessSummary user={user} />
      <UserProfileSection {...section} caller={caller} groups={groups} />
      <UserAccessSection {...section} projects={projects} groups={groups} />
      <UserAccountSection {...section} caller={caller} />
    </aside>
  );
}
