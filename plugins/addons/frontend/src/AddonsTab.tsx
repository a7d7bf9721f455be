import { useEffect, useRef, useState } from 'react';
import { ConfirmButton, ErrorBox, type Loaded, Table, useAction, useClient } from '@pipewright/sdk/ui';
import { followEvent, type Progress } from './follow-event';
import { deleteAddonVersion, uploadAddon, type AddonItem } from './routes';

/** Versions newest first, by semantic version where they are numbers. */
export function sortedVersions(addon: AddonItem): string[] {
  return Object.keys(addon.versions).sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
}

/** What the server runs: every addon with its versions, the broken ones with why; and installing a new one. */
export function AddonsTab({
  addons,
  onOpenSettings,
}: {
  addons: Loaded<AddonItem[]>;
  onOpenSettings(addon: string, version: string): void;
}) {
  const client = useClient();
  const removal = useAction();
  const list = addons.data ?? [];
  const broken = list.filter((addon) => Object.values(addon.versions).some((v) => v.isBroken));

  return (
    <div className="pw-stack">
      <InstallPanel onInstalled={addons.reload} />
      {broken.length > 0 && (
        <p className="error-box" role="alert">
          {broken.length === 1 ? 'One addon is broken' : `${broken.length} addons are broken`}: see the
          reasons below. Install a fixed version, or delete the broken one.
        </p>
      )}
      <ErrorBox error={addons.error ?? removal.error} />
      <Table label="Installed addons" columns={['Addon', 'Versions', 'Production', 'Staging']}>
        {list.map((addon) => (
          <tr key={addon.name} data-addon={addon.name}>
            <td>
              <div className="pw-strong">{addon.title}</div>
              <div className="muted pw-small">
                {addon.name}
                {addon.system && ' · built in'}
              </div>
              {addon.description && <div className="muted pw-small">{addon.description}</div>}
            </td>
            <td>
              {sortedVersions(addon).map((version) => {
                const info = addon.versions[version]!;
                return (
                  <div key={version} className={info.isBroken ? 'ad-version ad-broken' : 'ad-version'}>
                    <span className="pw-mono">{version}</span>
                    {info.isBroken && (
                      <span className="ad-reason"> broken: {info.reason?.error ?? 'unknown reason'}</span>
                    )}
                    {info.hasSettings && !info.isBroken && (
                      <button
                        type="button"
                        className="pw-link"
                        onClick={() => onOpenSettings(addon.name, version)}
                      >
                        Settings
                      </button>
                    )}
                    {!addon.system && (
                      <ConfirmButton
                        label="Delete"
                        confirmLabel={`Delete ${addon.name} ${version}`}
                        onConfirm={() =>
                          void removal.run(() =>
                            deleteAddonVersion(client, addon.name, version).then(addons.reload),
                          )
                        }
                      />
                    )}
                  </div>
                );
              })}
            </td>
            <td className="pw-mono">
              {addon.productionVersion ?? <span className="muted">not running</span>}
            </td>
            <td className="pw-mono">{addon.stagingVersion ?? <span className="muted">—</span>}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

/** Upload an addon zip and follow the install event until the addon runs (or fails, with the reason). */
function InstallPanel({ onInstalled }: { onInstalled(): void }) {
  const client = useClient();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const stopRef = useRef<(() => void) | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => () => stopRef.current?.(), []);

  const running = progress !== null && !['finished', 'failed', 'aborted'].includes(progress.status);
  const install = async () => {
    if (!file) return;
    setError(null);
    setProgress({ status: 'uploading', description: `Uploading ${file.name}`, progress: null });
    try {
      const eventId = await uploadAddon(client, file);
      stopRef.current = followEvent(client, eventId, 'addon.install', (update) => {
        setProgress(update);
        if (update.status === 'finished' || update.status === 'failed') onInstalled();
      });
      setFile(null);
      if (input.current) input.current.value = '';
    } catch (failure) {
      setProgress(null);
      setError(failure);
    }
  };

  return (
    <section className="pw-panel" aria-label="Install an addon">
      <h2>Install an addon</h2>
      <p className="muted pw-small">
        Choose the addon’s .zip package. It runs as soon as it is installed, without restarting the server.
      </p>
      <div className="pw-row">
        <input
          ref={input}
          type="file"
          accept=".zip,application/zip"
          aria-label="Addon package"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <button type="button" className="primary" disabled={!file || running} onClick={install}>
          Install
        </button>
      </div>
      {progress && (
        <div
          className={`ad-install ad-install-${progress.status}`}
          role="status"
          aria-label="Install progress"
        >
          <span>{progress.description}</span>
          {running && (
            <span className="pw-progress" role="progressbar" aria-valuenow={progress.progress ?? undefined}>
              <span style={{ width: `${progress.progress ?? 10}%` }} />
            </span>
          )}
          {progress.status === 'finished' && <strong> Done.</strong>}
          {progress.status === 'failed' && <strong> Check the package and try again.</strong>}
        </div>
      )}
      <ErrorBox error={error} />
    </section>
  );
}
