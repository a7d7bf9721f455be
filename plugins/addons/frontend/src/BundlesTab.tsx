import { useState } from 'react';
import { ErrorBox, type Loaded, Saved, Table, useAction, useClient, useLoaded } from '@pipewright/sdk/ui';
import { BundleRow, type BundleChange } from './BundleRow';
import { NewBundleForm } from './NewBundleForm';
import { listBundles, type AddonItem } from './routes';

/** Bundles: which addon versions run together. Create one from what is installed, try it as staging, promote it. */
export function BundlesTab({ addons }: { addons: Loaded<AddonItem[]> }) {
  const client = useClient();
  const bundles = useLoaded(() => listBundles(client), [client]);
  const [creating, setCreating] = useState(false);
  const change = useAction();
  const [expanded, setExpanded] = useState<string | null>(null);

  const act: BundleChange = (work, done) =>
    void change.run(async () => {
      await work;
      bundles.reload();
      // The production bundle decides which versions run: the addon list changes with it.
      addons.reload();
    }, done);
  const list = (bundles.data ?? []).slice().sort((a, b) => b.createdAt.localeCompare(a.createdAt));

  return (
    <div className="pw-stack">
      <div className="pw-row">
        <p className="muted pw-small pw-grow">
          The production bundle is what the studio runs. Try a new bundle as staging first, then promote it:
          its staging settings become the production settings.
        </p>
        <button type="button" className="primary" onClick={() => setCreating(!creating)}>
          {creating ? 'Close the new bundle' : 'New bundle'}
        </button>
      </div>
      {creating && addons.data && (
        <NewBundleForm
          addons={addons.data}
          onCreated={(name) => {
            setCreating(false);
            act(Promise.resolve(), `Bundle ${name} created.`);
          }}
        />
      )}
      <ErrorBox error={bundles.error ?? change.error} />
      <Saved message={change.done} />
      {bundles.data && list.length === 0 && (
        <p className="notice">
          No bundles yet: the server runs the newest version of every addon. Create a bundle to pin versions.
        </p>
      )}
      {list.length > 0 && (
        <Table label="Bundles" columns={['Bundle', 'Created', 'Role', 'Addons', 'Actions']}>
          {list.map((bundle) => (
            <BundleRow
              key={bundle.name}
              bundle={bundle}
              act={act}
              expanded={expanded === bundle.name}
              onExpand={(open) => setExpanded(open ? bundle.name : null)}
            />
          ))}
        </Table>
      )}
    </div>
  );
}
