import { useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { AddonsTab } from './AddonsTab';
import { BundlesTab } from './BundlesTab';
import { ErrorNote, Tabs } from './controls';
import { useLoaded } from './loading';
import { listAddons } from './routes';
import { useSession } from './session';
import { SettingsTab, type SettingsTarget } from './SettingsTab';
import './addons.css';

const TABS = [
  { id: 'addons', label: 'Addons' },
  { id: 'bundles', label: 'Bundles' },
  { id: 'settings', label: 'Settings' },
] as const;
type TabId = (typeof TABS)[number]['id'];

function useTab(): [TabId, (tab: TabId) => void] {
  const initial = new URLSearchParams(location.search).get('tab');
  const [tab, setTab] = useState<TabId>(TABS.some((t) => t.id === initial) ? (initial as TabId) : 'addons');
  const choose = (next: TabId) => {
    const url = new URL(location.href);
    url.searchParams.set('tab', next);
    history.replaceState(history.state, '', url);
    setTab(next);
  };
  return [tab, choose];
}

/** The server's addons for administrators: what is installed and runs, bundles of versions, and addon settings. */
export default function AddonsScreen(props: Partial<ScreenProps>) {
  const { api, user, error } = useSession(props);
  const [tab, setTab] = useTab();
  const addons = useLoaded(() => listAddons(api), [api]);
  const [target, setTarget] = useState<SettingsTarget | null>(null);

  if (error) return <ErrorNote error={`Who you are could not be read: ${error}`} />;
  if (!user) return <p className="muted">Loading…</p>;
  if (!user.isAdmin)
    return <p className="notice">Addons, bundles and addon settings are managed by administrators.</p>;

  return (
    <section className="ad-screen">
      <h1>Addons</h1>
      <Tabs tabs={[...TABS]} current={tab} onChange={setTab} />
      <div role="tabpanel" className="ad-tabpanel">
        {tab === 'addons' && (
          <AddonsTab
            api={api}
            addons={addons}
            onOpenSettings={(addon, version) => {
              setTarget({ addon, version });
              setTab('settings');
            }}
          />
        )}
        {tab === 'bundles' && <BundlesTab api={api} addons={addons} />}
        {tab === 'settings' &&
          (addons.data ? (
            <SettingsTab api={api} addons={addons.data} target={target} onTarget={setTarget} />
          ) : (
            <ErrorNote error={addons.error} />
          ))}
      </div>
    </section>
  );
}
