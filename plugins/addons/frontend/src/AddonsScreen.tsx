import { useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { ErrorBox, exposedScreen, TabbedScreen, useLoaded, useTabParam } from '@pipewright/sdk/ui';
import { AddonsTab } from './AddonsTab';
import { BundlesTab } from './BundlesTab';
import { listAddons } from './routes';
import { SettingsTab, type SettingsTarget } from './SettingsTab';
import './addons.css';

const TABS = [
  { id: 'addons', label: 'Addons' },
  { id: 'bundles', label: 'Bundles' },
  { id: 'settings', label: 'Settings' },
] as const;

/** The server's addons for administrators: what is installed and runs, bundles of versions, and addon settings. */
export default exposedScreen(function AddonsScreen({ client, user }: ScreenProps) {
  const [tab, setTab] = useTabParam(TABS.map((t) => t.id));
  const addons = useLoaded(() => listAddons(client), [client]);
  const [target, setTarget] = useState<SettingsTarget | null>(null);

  if (!user.isAdmin)
    return <p className="notice">Addons, bundles and addon settings are managed by administrators.</p>;

  return (
    <TabbedScreen title="Addons" tabs={TABS} current={tab} onChange={setTab}>
      {tab === 'addons' && (
        <AddonsTab
          addons={addons}
          onOpenSettings={(addon, version) => {
            setTarget({ addon, version });
            setTab('settings');
          }}
        />
      )}
      {tab === 'bundles' && <BundlesTab addons={addons} />}
      {tab === 'settings' &&
        (addons.data ? (
          <SettingsTab addons={addons.data} target={target} onTarget={setTarget} />
        ) : (
          <ErrorBox error={addons.error} />
        ))}
    </TabbedScreen>
  );
});
