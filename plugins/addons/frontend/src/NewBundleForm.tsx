import { useEffect, useMemo, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { ErrorBox, Table, useAction, useClient } from '@pipewright/sdk/ui';
import { sortedVersions } from './AddonsTab';
import { checkBundle, createBundle, type AddonItem, type BundleIssue, type BundleDraft } from './routes';

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

/** What the server says about a draft bundle: whether its versions can run together, asked again after each pause in editing. */
function useBundleIssues(client: PipewrightClient, draft: BundleDraft): BundleIssue[] {
  const [issues, setIssues] = useState<BundleIssue[]>([]);
  useEffect(() => {
    if (!draft.name) return;
    const timer = setTimeout(() => {
      checkBundle(client, draft)
        .then((result) => setIssues(result.issues))
        .catch(() => setIssues([]));
    }, 400);
    return () => clearTimeout(timer);
  }, [client, draft]);
  return issues;
}

/** A new bundle: its name, whether it is the staging bundle, and a version (or none) of each installed addon. */
export function NewBundleForm({ addons, onCreated }: { addons: AddonItem[]; onCreated(name: string): void }) {
  const client = useClient();
  const [name, setName] = useState(defaultBundleName);
  const [asStaging, setAsStaging] = useState(true);
  const [versions, setVersions] = useState<Record<string, string>>(() =>
    Object.fromEntries(addons.map((addon) => [addon.name, startingVersion(addon) ?? OFF])),
  );
  const creation = useAction();

  const draft = useMemo(
    () => ({
      name: name.trim(),
      addons: Object.fromEntries(Object.entries(versions).map(([addon, v]) => [addon, v === OFF ? null : v])),
      ...(asStaging ? { isStaging: true } : {}),
    }),
    [name, versions, asStaging],
  );
  const issues = useBundleIssues(client, draft);

  const submit = creation.submit(async () => {
    await createBundle(client, draft);
    onCreated(draft.name);
  });

  const errors = issues.filter((issue) => issue.severity === 'error');
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
              <VersionSelect
                addon={addon}
                value={versions[addon.name] ?? OFF}
                onChange={(version) => setVersions({ ...versions, [addon.name]: version })}
              />
            </td>
          </tr>
        ))}
      </Table>
      <BundleIssues errors={errors} warnings={issues.filter((issue) => issue.severity === 'warning')} />
      <ErrorBox error={creation.error} />
      <button type="submit" className="primary" disabled={creation.busy || !draft.name || errors.length > 0}>
        {creation.busy ? 'Creating…' : 'Create bundle'}
      </button>
    </form>
  );
}

/** An addon's versions, the broken ones shown but not choosable, and Off. */
function VersionSelect({
  addon,
  value,
  onChange,
}: {
  addon: AddonItem;
  value: string;
  onChange(version: string): void;
}) {
  return (
    <select aria-label={`Version of ${addon.name}`} value={value} onChange={(e) => onChange(e.target.value)}>
      {sortedVersions(addon).map((version) => (
        <option key={version} value={version} disabled={addon.versions[version]!.isBroken}>
          {version}
          {addon.versions[version]!.isBroken ? ' (broken)' : ''}
        </option>
      ))}
      <option value={OFF}>Off</option>
    </select>
  );
}

/** The errors (which keep the bundle from being created) in a list, the warnings folded away below. */
function BundleIssues({ errors, warnings }: { errors: BundleIssue[]; warnings: BundleIssue[] }) {
  return (
    <>
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
    </>
  );
}
