import type { ScreenProps } from '@pipewright/sdk/screen';
import { exposedScreen, TabbedScreen, useTabParam } from '@pipewright/sdk/ui';
import { AccessGroupsTab } from './AccessGroupsTab';
import { ApiKeysTab } from './ApiKeysTab';
import { PeopleTab } from './PeopleTab';
import { TeamsTab } from './TeamsTab';
import './users.css';

const TABS = [
  { id: 'people', label: 'Users' },
  { id: 'access', label: 'Access groups' },
  { id: 'teams', label: 'Teams' },
  { id: 'keys', label: 'API keys' },
] as const;

/** Who works in the studio and what they may do: users, access groups, teams, and service users' API keys. */
export default exposedScreen(function UsersScreen({ user, project }: ScreenProps) {
  const [tab, setTab] = useTabParam(TABS.map((t) => t.id));

  if (!user.isAdmin && !user.isManager)
    return <p className="notice">Users and access are managed by managers and administrators.</p>;

  return (
    <TabbedScreen title="People and access" tabs={TABS} current={tab} onChange={setTab}>
      {tab === 'people' && <PeopleTab caller={user} />}
      {tab === 'access' && <AccessGroupsTab />}
      {tab === 'teams' && <TeamsTab project={project} />}
      {tab === 'keys' && <ApiKeysTab caller={user} />}
    </TabbedScreen>
  );
});
