import { useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { AccessGroupsTab } from './AccessGroupsTab';
import { ApiKeysTab } from './ApiKeysTab';
import { ErrorNote, Tabs } from './controls';
import { PeopleTab } from './PeopleTab';
import { TeamsTab } from './TeamsTab';
import { useSession } from './session';
import './users.css';

const TABS = [
  { id: 'people', label: 'Users' },
  { id: 'access', label: 'Access groups' },
  { id: 'teams', label: 'Teams' },
  { id: 'keys', label: 'API keys' },
] as const;
type TabId = (typeof TABS)[number]['id'];

function useTab(): [TabId, (tab: TabId) => void] {
  const initial = new URLSearchParams(location.search).get('tab');
  const [tab, setTab] = useState<TabId>(TABS.some((t) => t.id === initial) ? (initial as TabId) : 'people');
  const choose = (next: TabId) => {
    const url = new URL(location.href);
    url.searchParams.set('tab', next);
    history.replaceState(history.state, '', url);
    setTab(next);
  };
  return [tab, choose];
}

/** Who works in the studio and what they may do: users, access groups, teams, and service users' API keys. */
export default function UsersScreen(props: Partial<ScreenProps>) {
  const { api, user, error } = useSession(props);
  const [tab, setTab] = useTab();

  if (error) return <ErrorNote error={`Who you are could not be read: ${error}`} />;
  if (!user) return <p className="muted">Loading…</p>;
  if (!user.isAdmin && !user.isManager)
    return <p className="notice">Users and access are managed by managers and administrators.</p>;

  return (
    <section className="us-screen">
      <h1>People and access</h1>
      <Tabs tabs={[...TABS]} current={tab} onChange={setTab} />
      <div role="tabpanel" className="us-tabpanel">
        {tab === 'people' && <PeopleTab api={api} caller={user} />}
        {tab === 'access' && <AccessGroupsTab api={api} />}
        {tab === 'teams' && <TeamsTab api={api} project={props.project ?? null} />}
        {tab === 'keys' && <ApiKeysTab api={api} caller={user} />}
      </div>
    </section>
  );
}
