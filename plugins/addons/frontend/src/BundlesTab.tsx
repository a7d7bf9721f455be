import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { Api } from './api';
import { sortedVersions } from './AddonsTab';
import { ConfirmButton, ErrorNote, Saved } from './controls';
import { useLoaded, type Loaded } from './loading';
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

function roleOf(bundle: Bundle): string {
  if (bundle.isProduction && bundle.isStaging) return 'Production and staging';
  if (bundle.isProduction) return 'Production';
  if (bundle.isStaging) return 'Staging';
  if (bundle.isDev) return 'Development';
  if (bundle.isArchived) return 'Archived';
  return '—';
}

/** Bundles: which addon versions run together. Create one from what is installed, try it as staging, promote it. */
export function BundlesTab({ api, addons }: { api: Api; addons: Loaded<AddonItem[]> }) {
  const bundles = useLoaded(() => listBundles(api), [api]);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<string | null>(null);

  const act = (work: Promise<unknown>, done: string) => {
    setError(null);
    setSaved(null);
    work
      .then(() => {
        setSaved(done);
        bundles.reload();
        // The production bundle decides which versions run: the addon list changes with it.
        addons.reload();
      })
      .catch((failure: Error) => setError(failure.message));
  };
  const list = (bundles.data ?? []).slice().sort((a, b) => b.createdAt.localeCompare(a.createdAt));

  return (
    <div className="ad-stack">
      <div className="ad-row">
        <p className="muted ad-small ad-grow">
          The production bundle is what the studio runs. Try a new bundle as staging first, then promote it:
          its staging settings become the production settings.
        </p>
        <button type="button" className="primary" onClick={() => setCreating(!creating)}>
          {creating ? 'Close the new bundle' : 'New bundle'}
        </button>
      </div>
      {creating && addons.data && (
        <NewBundleForm
          api={api}
          addons={addons.data}
          onCreated={(name) => {
            setCreating(false);
            setSaved(`Bundle ${name} created.`);
            bundles.reload();
            addons.reload();
          }}
        />
      )}
      <ErrorNote error={bundles.error ?? error} />
      <Saved message={saved} />
      {bundles.data && list.length === 0 && (
        <p className="notice">
          No bundles yet: the server runs the newest version of every addon. Create a bundle to pin versions.
        </p>
      )}
      {list.length > 0 && (
        <table className="ad-table" aria-label="Bundles">
          <thead>
            <tr>
              <th scope="col">Bundle</th>
              <th scope="col">Created</th>
              <th scope="col">Role</th>
              <th scope="col">Addons</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((bundle) => (
              <tr
                key={bundle.name}
                data-bundle={bundle.name}
                className={bundle.isArchived ? 'ad-archived' : undefined}
              >
                <td className="ad-strong">{bundle.name}</td>
                <td>{new Date(bundle.createdAt).toLocaleString()}</td>
                <td>
                  <span className={`ad-role ad-role-${roleOf(bundle).toLowerCase().split(' ')[0]}`}>
                    {roleOf(bundle)}
                  </span>
                </td>
                <td>
                  <button
                    type="button"
                    className="ad-link"
                    aria-expanded={expanded === bundle.name}
                    onClick={() => setExpanded(expanded === bundle.name ? null : bundle.name)}
                  >
                    {Object.keys(bundle.addons).length} addons
                  </button>
                  {expanded === bundle.name && (
                    <ul className="ad-versions">
                      {Object.entries(bundle.addons).map(([name, version]) => (
                        <li key={name}>
                          {name} <span className="ad-mono">{version ?? 'off'}</span>
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
                        patchBundle(api, bundle.name, { isStaging: true }),
                        `${bundle.name} is the staging bundle.`,
                      )
                    }
                    onPromote={() =>
                      act(
                        promoteBundle(api, bundle.name),
                        `${bundle.name} is promoted: it is the production bundle now.`,
                      )
                    }
                    onProduction={() =>
                      act(
                        patchBundle(api, bundle.name, { isProduction: true }),
                        `${bundle.name} is the production bundle.`,
                      )
                    }
                    onArchive={(archived) =>
                      act(
                        patchBundle(api, bundle.name, { isArchived: archived }),
                        archived ? `${bundle.name} is archived.` : `${bundle.name} is back from the archive.`,
                      )
                    }
                    onDelete={() => act(deleteBundle(api, bundle.name), `${bundle.name} is deleted.`)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
      <div className="ad-row">
        <button type="button" onClick={() => onArchive(false)}>
          Unarchive
        </button>
        <ConfirmButton label="Delete" confirmLabel={`Delete ${bundle.name}`} onConfirm={onDelete} />
      </div>
    );
  const inUse = bundle.isProduction || bundle.isStaging;
  return (
    <div className="ad-row">
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
  api,
  addons,
  onCreated,
}: {
  api: Api;
  addons: AddonItem[];
  onCreated(name: string): void;
}) {
  const [name, setName] = useState(defaultBundleName);
  const [asStaging, setAsStaging] = useState(true);
  const [versions, setVersions] = useState<Record<string, string>>(() =>
    Object.fromEntries(addons.map((addon) => [addon.name, startingVersion(addon) ?? OFF])),
  );
  const [issues, setIssues] = useState<BundleIssue[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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
      checkBundle(api, draft)
        .then((result) => setIssues(result.issues))
        .catch(() => setIssues([]));
    }, 400);
    return () => clearTimeout(timer);
  }, [api, draft]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await createBundle(api, draft);
      onCreated(draft.name);
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  const errors = issues.filter((issue) => issue.severity === 'error');
  const warnings = issues.filter((issue) => issue.severity === 'warning');
  return (
    <form className="ad-panel" aria-label="New bundle" onSubmit={submit}>
      <h2>New bundle</h2>
      <div className="ad-row">
        <label className="ad-field">
          Bundle name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            pattern="[a-zA-Z0-9_]([a-zA-Z0-9_.\-]*[a-zA-Z0-9_])?"
            title="Letters, digits and underscores, with dots or dashes inside"
          />
        </label>
        <label className="ad-inline">
          <input type="checkbox" checked={asStaging} onChange={(e) => setAsStaging(e.target.checked)} />
          Make it the staging bundle
        </label>
      </div>
      <table className="ad-table" aria-label="Addon versions of the new bundle">
        <thead>
          <tr>
            <th scope="col">Addon</th>
            <th scope="col">Version</th>
          </tr>
        </thead>
        <tbody>
          {addons.map((addon) => (
            <tr key={addon.name}>
              <td>
                {addon.title} <span className="muted ad-small">{addon.name}</span>
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
        </tbody>
      </table>
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
      <ErrorNote error={error} />
      <button type="submit" className="primary" disabled={busy || !draft.name || errors.length > 0}>
        {busy ? 'Creating…' : 'Create bundle'}
      </button>
    </form>
  );
}
