import { ConfirmButton, useClient } from '@pipewright/sdk/ui';
import { deleteBundle, patchBundle, promoteBundle, type Bundle } from './routes';

/** Runs a change of a bundle, then says what it did. */
export type BundleChange = (work: Promise<unknown>, done: string) => void;

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

/** One bundle of the table: its role, the addon versions it pins (unfolded on demand) and what can be done to it. */
export function BundleRow({
  bundle,
  act,
  expanded,
  onExpand,
}: {
  bundle: Bundle;
  act: BundleChange;
  /** Whether its addon versions are listed: one bundle's at a time. */
  expanded: boolean;
  onExpand(expanded: boolean): void;
}) {
  const role = roleOf(bundle);
  return (
    <tr data-bundle={bundle.name} className={bundle.isArchived ? 'pw-dimmed' : undefined}>
      <td className="pw-strong">{bundle.name}</td>
      <td>{new Date(bundle.createdAt).toLocaleString()}</td>
      <td>
        <span className={`pw-badge ${ROLE_TONE[role.toLowerCase().split(' ')[0]!] ?? ''}`}>{role}</span>
      </td>
      <td>
        <button
          type="button"
          className="pw-link"
          aria-expanded={expanded}
          onClick={() => onExpand(!expanded)}
        >
          {Object.keys(bundle.addons).length} addons
        </button>
        {expanded && (
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
        <BundleActions bundle={bundle} act={act} />
      </td>
    </tr>
  );
}

/** The buttons a bundle's role allows: the bundles in use can be neither archived nor deleted. */
function BundleActions({ bundle, act }: { bundle: Bundle; act: BundleChange }) {
  const client = useClient();
  const { name } = bundle;
  const archive = (archived: boolean) =>
    act(
      patchBundle(client, name, { isArchived: archived }),
      archived ? `${name} is archived.` : `${name} is back from the archive.`,
    );
  const remove = (
    <ConfirmButton
      label="Delete"
      confirmLabel={`Delete ${name}`}
      onConfirm={() => act(deleteBundle(client, name), `${name} is deleted.`)}
    />
  );
  if (bundle.isArchived)
    return (
      <div className="pw-row">
        <button type="button" onClick={() => archive(false)}>
          Unarchive
        </button>
        {remove}
      </div>
    );
  const inUse = bundle.isProduction || bundle.isStaging;
  const candidate = !inUse && !bundle.isDev;
  return (
    <div className="pw-row">
      {bundle.isStaging && !bundle.isProduction && (
        <ConfirmButton
          label="Promote to production"
          confirmLabel="Promote now"
          onConfirm={() =>
            act(promoteBundle(client, name), `${name} is promoted: it is the production bundle now.`)
          }
        />
      )}
      {candidate && (
        <button
          type="button"
          onClick={() =>
            act(patchBundle(client, name, { isStaging: true }), `${name} is the staging bundle.`)
          }
        >
          Set as staging
        </button>
      )}
      {candidate && (
        <ConfirmButton
          label="Set as production"
          confirmLabel="Make it production"
          onConfirm={() =>
            act(patchBundle(client, name, { isProduction: true }), `${name} is the production bundle.`)
          }
        />
      )}
      {!inUse && (
        <>
          <button type="button" onClick={() => archive(true)}>
            Archive
          </button>
          {remove}
        </>
      )}
    </div>
  );
}
