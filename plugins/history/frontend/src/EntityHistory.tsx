import { useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import {
  callRoute,
  ErrorBox,
  exposedScreen,
  messageOf,
  useClient,
  useLoaded,
  When,
} from '@pipewright/sdk/ui';
import { clientName, describeChange, fieldLabel, type Change } from './describe';
import './history.css';

/** What the history takes besides the ScreenProps (other screens pass it through ScreenProps.Extension). */
export interface EntityHistoryProps {
  entityType: string;
  entityId: string;
}

interface Page {
  changes: Change[];
  hasMore: boolean;
}

const TYPES = ['folder', 'task', 'product', 'version', 'representation', 'workfile'];
const PAGE = 50;

/**
 * Who changed what on one entity, and when, newest first: every field, attributes one by one. Embedded by other
 * screens (the overview's detail panel) with <Extension module="history_screens/EntityHistory"
 * props={{ entityType, entityId }} />.
 */
export default exposedScreen(function EntityHistory(props: ScreenProps & EntityHistoryProps) {
  const { project, entityType, entityId } = props;
  if (!project || !entityId) return <p className="muted">Choose something to see its history.</p>;
  if (!TYPES.includes(entityType)) return <p className="muted">A {String(entityType)} keeps no history.</p>;
  return (
    <History key={`${project}/${entityType}/${entityId}`} project={project} type={entityType} id={entityId} />
  );
});

function History({ project, type, id }: { project: string; type: string; id: string }) {
  const client = useClient();
  const [field, setField] = useState('');
  const [olderError, setOlderError] = useState<string | null>(null);
  const page = (before?: string) => {
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (field) query.set('field', field);
    if (before) query.set('before', before);
    return callRoute<Page>(client, `/api/projects/${project}/${type}s/${id}/history?${query}`);
  };
  const read = useLoaded(() => page(), [client, project, type, id, field], {
    // Every change of this entity is an event about it: read the newest page again once a burst has settled.
    live: {
      client,
      topics: [`entity.${type}`],
      project,
      when: (e) => e.summary.entityId === id,
      settleMs: 300,
    },
  });
  const changes = read.data?.changes ?? [];
  // The fields to narrow to: those seen so far, and the one chosen.
  const fields = [...new Set([...changes.map((c) => c.field), ...(field ? [field] : [])])].sort();

  const showOlder = async () => {
    setOlderError(null);
    try {
      const more = await page(changes[changes.length - 1]?.id);
      read.set(
        (current) => current && { changes: [...current.changes, ...more.changes], hasMore: more.hasMore },
      );
    } catch (error) {
      setOlderError(messageOf(error));
    }
  };

  return (
    <section className="pwh-history" aria-label="History">
      <label className="pwh-filter">
        <span className="muted">Show</span>
        <select value={field} onChange={(e) => setField(e.target.value)} aria-label="Field to show">
          <option value="">every field</option>
          {fields.map((name) => (
            <option key={name} value={name}>
              {fieldLabel(name)}
            </option>
          ))}
        </select>
      </label>
      <ErrorBox error={read.error && `The history could not be read: ${read.error}`} />
      {!read.data && !read.error && <p className="muted">Reading the history…</p>}
      {read.data && changes.length === 0 && (
        <p className="muted">
          {field ? `No change of ${fieldLabel(field)} yet.` : 'No change recorded yet.'}
        </p>
      )}
      <ol className="pwh-changes">
        {changes.map((change) => (
          <li key={change.id} className="pwh-change">
            <div>
              <strong>{change.user ?? 'someone'}</strong> {describeChange(change)}
            </div>
            <div className="pwh-meta muted">
              <When at={change.changedAt} />
              {' · '}
              <span title={origin(change)}>{clientName(change)}</span>
            </div>
          </li>
        ))}
      </ol>
      <ErrorBox error={olderError && `Older changes could not be read: ${olderError}`} />
      {read.data?.hasMore && (
        <button type="button" className="pw-button" onClick={showOlder}>
          Show older changes
        </button>
      )}
    </section>
  );
}

const SIGNED_IN: Record<string, string> = {
  session: 'a session',
  apiKey: 'an API key',
  service: "a service's key",
};

/** Where the change came from, for a title: how the user signed in, the client and its sender name. */
function origin(change: Change): string {
  const parts = [`signed in with ${SIGNED_IN[change.via] ?? change.via}`];
  if (change.client) parts.push(`client: ${change.client}`);
  if (change.sender) parts.push(`sender: ${change.sender}`);
  return parts.join('\n');
}
