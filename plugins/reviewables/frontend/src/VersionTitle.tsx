import { useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf, Options, useClient, useLoaded } from '@pipewright/sdk/ui';
import { versionLabel, type VersionPlace } from './browse';

// Where the version under review sits (folders, product, version) and its status, which the reviewer sets here as
// the verdict of the review: saved at once through the version's REST PATCH, as the overview saves statuses.

interface StatusDef {
  name: string;
  scope?: string[];
}

/** The project's statuses a version may take (a status's scope lists the entity types it applies to). */
async function versionStatuses(client: PipewrightClient, project: string): Promise<string[]> {
  const meta = await client.GET('/api/projects/{project_name}', {
    params: { path: { project_name: project } },
  });
  // The schema leaves the anatomy lists open; the fields read here are the ones every status has.
  const statuses = ((meta as unknown as { statuses?: StatusDef[] }).statuses ?? []).filter(
    (status) => typeof status?.name === 'string',
  );
  return statuses
    .filter((status) => !status.scope || status.scope.length === 0 || status.scope.includes('version'))
    .map((status) => status.name);
}

interface VersionTitleProps {
  project: string;
  place: VersionPlace;
  /** The server has the version's new status. */
  onStatus(status: string): void;
}

export function VersionTitle({ project, place, onStatus }: VersionTitleProps) {
  const folderPath = place.folders.map((folder) => folder.label || folder.name).join(' / ');
  return (
    <span className="pwr-place" aria-label="Version under review">
      <span className="muted">{folderPath} ›</span> <span>{place.product.name}</span>{' '}
      <span className="muted">›</span>{' '}
      {place.version.version < 0 ? (
        <span className="pw-badge pw-badge-info">HERO</span>
      ) : (
        <strong>{versionLabel(place.version)}</strong>
      )}{' '}
      <StatusPicker project={project} place={place} onStatus={onStatus} />
    </span>
  );
}

function StatusPicker({ project, place, onStatus }: VersionTitleProps) {
  const client = useClient();
  const statuses = useLoaded(() => versionStatuses(client, project), [client, project]);
  const [saving, setSaving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = saving ?? place.version.status;
  // A status no longer in the project's list is still shown as the version's own.
  const names = statuses.data ?? [];
  const offered = names.includes(current) ? names : [current, ...names];

  const save = (status: string) => {
    setSaving(status);
    setError(null);
    client
      .PATCH('/api/projects/{project_name}/versions/{version_id}', {
        params: { path: { project_name: project, version_id: place.version.id } },
        body: { status },
      })
      .then(
        () => onStatus(status),
        (failure) => setError(`The status was not saved: ${messageOf(failure)}`),
      )
      .finally(() => setSaving(null));
  };

  return (
    <>
      <select
        className="pwr-status"
        aria-label="Version status"
        title="The version's status: set it as the outcome of the review"
        value={current}
        disabled={saving !== null || !statuses.data}
        onChange={(event) => {
          save(event.target.value);
          // The player's keys work again at once (a focused menu would take Space and the arrows).
          event.target.blur();
        }}
      >
        <Options items={offered} value={(name) => name} />
      </select>
      {saving && <span className="muted pw-small">Saving…</span>}
      {error && (
        <span className="pwr-error pw-small" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
