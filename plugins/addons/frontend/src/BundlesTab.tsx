import { useEffect, useMemo, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { ConfirmButton, ErrorBox, type Loaded, Saved, Table, useAction, useLoaded } from '@pipewright/sdk/ui';
import { sortedVersions } from './AddonsTab';
import {
  checkBundle,
  createBundle,
  deleteBundle,
  listBundles,
  patchBundle,
  promoteBundle,
  type AddonItem,
  type Bundle,
  type BundleIssue,
} from './routes';

/** The theme's badge colour of the roles that matter most. */
const ROLE_TONE: Record<string, string> = { production: 'pw-badge-good', staging: 'pw-badge-warn' };

function roleOf(bundle: Bundle): string {
  if (bundle.isProduction && bundle.isStaging) return 'Production and staging';
  if (bundle.isProduction) return 'Production';
  if (bundle.isStaging) return 'Staging';
  if (bundle.isDev) return 'Development';
  if (bundle.isArchived) return 'Archived';
  return '—';
}

/** Bundles: which addon versions run together. Create one from what is installed, try it as staging, promote it. */
export function BundlesTab({ client, addons }: { client: PipewrightClient; addons: Loaded<AddonItem[]> }) {
  const bundles = useLoaded(() => listBundles(client), [client]);
  const [creating, setCreating] = useState(false);
  const change = useAction();
  const [expanded, setExpanded] = useState<string | null>(null);

  const act = (work: Promise<unknown>, done: string) =>
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
          client={client}
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
            <tr
              key={bundle.name}
              data-bundle={bundle.name}
              className={bundle.isArchived ? 'pw-dimmed' : undefined}
            >
              <td className="pw-strong">{bundle.name}</td>
              <td>{new Date(bundle.createdAt).toLocaleString()}</td>
              <td>
                <span className={`pw-badge ${ROLE_TONE[roleOf(bundle).toLowerCase().split(' ')[0]!] ?? ''}`}>
                  {roleOf(bundle)}
                </span>
              </td>
              <td>
                <button
                  type="button"
                  className="pw-link"
                  aria-expanded={expanded === bundle.name}
                  onClick={() => setExpanded(expanded === bundle.name ? null : bundle.name)}
                >
                  {Object.keys(bundle.addons).length} addons
                </button>
                {expanded === bundle.name && (
                  <ul className="ad-versions">
                    {Object.entries(bundle.addons).map(([name, version]) => (
                      <li key={name}>
                        {name} <span className="pw-mono">{version ?? 'off'}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td>
                <BundleActions
                  bundle={bundle}
                  onStaging={() =>
                    act(
                      patchBundle(client, bundle.name, { isStaging: true }),
                      `${bundle.name} is the staging bundle.`,
                    )
                  }
                  onPromote={() =>
                    act(
                      promoteBundle(client, bundle.name),
                      `${bundle.name} is promoted: it is the production bundle now.`,
                    )
                  }
                  onProduction={() =>
                    act(
                      patchBundle(client, bundle.name, { isProduction: true }),
                      `${bundle.name} is the production bundle.`,
                    )
                  }
                  onArchive={(archived) =>
                    act(
                      patchBundle(client, bundle.name, { isArchived: archived }),
                      archived ? `${bundle.name} is archived.` : `${bundle.name} is back from the archive.`,
                    )
                  }
                  onDelete={() => act(deleteBundle(client, bundle.name), `${bundle.name} is deleted.`)}
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}

function BundleActions({
  bundle,
  onStaging,
  onPromote,
  onProduction,
  onArchive,
  onDelete,
}: {
  bundle: Bundle;
  onStaging(): void;
  onPromote(): void;
  onProduction(): void;
  onArchive(archived: boolean): void;
  onDelete(): void;
}) {
  if (bundle.isArchived)
    return (
      <div className="pw-row">
        <button type="button" onClick={() => onArchive(false)}>
          Unarchive
        </button>
        <ConfirmButton label="Delete" confirmLabel={`Delete ${bundle.name}`} onConfirm={onDelete} />
      </div>
    );
  const inUse = bundle.isProduction || bundle.isStaging;
  return (
    <div className="pw-row">
      {bundle.isStaging && !bundle.isProduction && (
        <ConfirmButton label="Promote to production" confirmLabel="Promote now" onConfirm={onPromote} />
      )}
      {!bundle.isStaging && !bundle.isProduction && !bundle.isDev && (
        <button type="button" onClick={onStaging}>
          Set as staging
        </button>
      )}
      {!bundle.isProduction && !bundle.isStaging && !bundle.isDev && (
        <ConfirmButton label="Set as production" confirmLabel="Make it production" onConfirm={onProduction} />
      )}
      {!inUse && (
        <>
          <button type="button" onClick={() => onArchive(true)}>
            Archive
          </button>
          <ConfirmButton label="Delete" confirmLabel={`Delete ${bundle.name}`} onConfirm={onDelete} />
        </>
      )}
    </div>
  );
}

/** The version a new bundle starts with: the one production runs, else the newest that is not broken. */
function startingVersion(addon: AddonItem): string | null {
  if (addon.productionVersion) return addon.productionVersion;
  return sortedVersions(addon).find((version) => !addon.versions[version]!.isBroken) ?? null;
}

function defaultBundleName(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `studio-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
}

const OFF = '';

function NewBundleForm({
  client,
  addons,
  onCreated,
}: {
  client: PipewrightClient;
  addons: AddonItem[];
  onCreated(name: string): void;
}) {
  const [name, setName] = useState(defaultBundleName);
  const [asStaging, setAsStaging] = useState(true);
  const [versions, setVersions] = useState<Record<string, string>>(() =>
    Object.fromEntries(addons.map((addon) => [addon.name, startingVersion(addon) ?? OFF])),
  );
  const [issues, setIssues] = useState<BundleIssue[]>([]);
  const creation = useAction();

  const draft = useMemo(
    () => ({
      name: name.trim(),
      addons: Object.fromEntries(Object.entries(versions).map(([addon, v]) => [addon, v === OFF ? null : v])),
      ...(asStaging ? { isStaging: true } : {}),
    }),
    [name, versions, asStaging],
  );

  // The server checks whether the versions can run together; ask again after each pause in editing.
  useEffect(() => {
    if (!draft.name) return;
    const timer = setTimeout(() => {
      checkBundle(client, draft)
        .then((result) => setIssues(result.issues))
        .catch(() => setIssues([]));
    }, 400);
    return () => clearTimeout(timer);
  }, [client, draft]);

  const submit = creation.submit(async () => {
    await createBundle(client, draft);
    onCreated(draft.name);
  });

  const errors = issues.filter((issue) => issue.severity === 'error');
  const warnings = issues.filter((issue) => issue.severity === 'warning');
  return (
    <form className="pw-panel" aria-label="New bundle" onSubmit={submit}>
      <h2>New bundle</h2>
      <div className="pw-row">
        <label className="pw-field">
          Bundle name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            pattern="[a-zA-Z0-9_]([a-zA-Z0-9_.\-]*[a-zA-Z0-9_])?"
            title="Letters, digits and underscores, with dots or dashes inside"
          />
        </label>
        <label className="pw-inline">
          <input type="checkbox" checked={asStaging} onChange={(e) => setAsStaging(e.target.checked)} />
          Make it the staging bundle
        </label>
      </div>
      <Table label="Addon versions of the new bundle" columns={['Addon', 'Version']}>
        {addons.map((addon) => (
          <tr key={addon.name}>
            <td>
              {addon.title} <span className="muted pw-small">{addon.name}</span>
            </td>
            <td>
              <select
                aria-label={`Version of ${addon.name}`}
                value={versions[addon.name] ?? OFF}
                onChange={(e) => setVersions({ ...versions, [addon.name]: e.target.value })}
              >
                {sortedVersions(addon).map((version) => (
                  <option key={version} value={version} disabled={addon.versions[version]!.isBroken}>
                    {version}
                    {addon.versions[version]!.isBroken ? ' (broken)' : ''}
                  </option>
                ))}
                <option value={OFF}>Off</option>
              </select>
            </td>
          </tr>
        ))}
      </Table>
      {errors.length > 0 && (
        <ul className="error-box ad-issues" aria-label="Problems">
          {errors.map((issue, i) => (
            <li key={i}>{issue.message}</li>
          ))}
        </ul>
      )}
      {warnings.length > 0 && (
        <details className="ad-warnings">
          <summary>
            {warnings.length} {warnings.length === 1 ? 'note' : 'notes'} for desktop launchers and dependent
            addons
          </summary>
          <ul>
            {warnings.map((issue, i) => (
              <li key={i}>{issue.message}</li>
            ))}
          </ul>
        </details>
      )}
      <ErrorBox error={creation.error} />
      <button type="submit" className="primary" disabled={creation.busy || !draft.name || errors.length > 0}>
        {creation.busy ? 'Creating…' : 'Create bundle'}
      </button>
    </form>
  );
}
