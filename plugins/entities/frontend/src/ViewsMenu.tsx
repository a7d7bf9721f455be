import { useState, type FormEvent } from 'react';
import { ErrorBox, messageOf, useClient, useLoaded } from '@pipewright/sdk/ui';
import { Popover } from './Popover';
import { fromSettings, toSettings, type OverviewView } from './views';

// Named views of the overview: the current look saved under a name (for oneself, or shared with everyone),
// restored with one click, deleted by its owner. The project's views come first, then the studio's.

interface SavedView {
  id: string;
  label: string;
  owner: string;
  visibility: 'public' | 'private';
  scope: 'project' | 'studio';
  /** The owner's working view (the look kept without a save): not a named view. */
  working: boolean;
  /** 30 for the caller's own views. */
  accessLevel: number;
}

const path = { view_type: 'overview' as const };

interface ViewsProps {
  project: string;
  current: OverviewView;
  onRestore(view: OverviewView): void;
  onNotice(text: string): void;
}

export function ViewsMenu(props: ViewsProps) {
  return (
    <Popover label="Views" title="Saved views" className="pwo-views">
      {(close) => <ViewsPanel {...props} close={close} />}
    </Popover>
  );
}

function ViewsPanel({ project, current, onRestore, onNotice, close }: ViewsProps & { close(): void }) {
  const client = useClient();
  // Read each time the menu opens (the panel mounts then), so views others shared since show up.
  const listed = useLoaded(
    () =>
      client
        .GET('/api/views/{view_type}', { params: { path, query: { project_name: project } } })
        .then((answer) => (answer.views as SavedView[]).filter((v) => !v.working)),
    [client, project],
  );
  const views = listed.data;
  const [failed, setError] = useState<string | null>(null);
  const error = failed ?? (listed.error && `The saved views could not be read: ${listed.error}`);
  const [label, setLabel] = useState('');
  const [shared, setShared] = useState(false);
  const [busy, setBusy] = useState(false);

  const act = async (work: () => Promise<unknown>, failed: string) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await listed.reload();
      return true;
    } catch (failure) {
      setError(`${failed}: ${messageOf(failure)}`);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const name = label.trim();
    if (!name) return setError('Give the view a name.');
    const done = await act(
      () =>
        client.POST('/api/views/{view_type}', {
          params: { path, query: { project_name: project } },
          body: {
            label: name,
            working: false,
            visibility: shared ? 'public' : 'private',
            settings: toSettings(current),
          },
        }),
      `The view ${name} was not saved`,
    );
    if (done) {
      // The next view starts private again: sharing is chosen for each one.
      setLabel('');
      setShared(false);
      onNotice(`Saved the view ${name}${shared ? ', shared with everyone' : ''}.`);
    }
  };

  const restore = (view: SavedView) =>
    act(async () => {
      const found = await client.GET('/api/views/{view_type}/{view_id}', {
        params: { path: { ...path, view_id: view.id }, query: { project_name: project } },
      });
      onRestore(fromSettings(found.settings as Record<string, unknown>));
      close();
      onNotice(`Restored the view ${view.label}.`);
    }, `The view ${view.label} could not be restored`);

  /** Share one's own view with everyone, or make it private again. */
  const share = (view: SavedView, shared: boolean) =>
    act(
      () =>
        client.PATCH('/api/views/{view_type}/{view_id}', {
          params: { path: { ...path, view_id: view.id }, query: { project_name: project } },
          body: { visibility: shared ? 'public' : 'private' },
        }),
      `The view ${view.label} was not ${shared ? 'shared' : 'made private'}`,
    );

  const remove = (view: SavedView) =>
    act(
      () =>
        client.DELETE('/api/views/{view_type}/{view_id}', {
          params: { path: { ...path, view_id: view.id }, query: { project_name: project } },
        }),
      `The view ${view.label} was not deleted`,
    );

  return (
    <>
      {!views && !error && <p className="muted">Reading…</p>}
      {views && views.length === 0 && (
        <p className="muted">No saved views yet: save how the grid looks now below.</p>
      )}
      {views && views.length > 0 && (
        <ul aria-label="Views">
          {views.map((view) => (
            <li key={view.id} data-view={view.label}>
              <button
                type="button"
                className="pwo-link"
                disabled={busy}
                aria-label={`Restore ${view.label}`}
                onClick={() => void restore(view)}
              >
                {view.label}
              </button>
              <span className="muted">
                {view.visibility === 'public' ? 'shared' : 'private'}
                {view.accessLevel < 30 ? ` · by ${view.owner}` : ''}
                {view.scope === 'studio' ? ' · studio' : ''}
              </span>
              {view.accessLevel >= 30 && (
                <>
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={`${view.visibility === 'public' ? 'Make private' : 'Share'} ${view.label}`}
                    onClick={() => void share(view, view.visibility !== 'public')}
                  >
                    {view.visibility === 'public' ? 'Make private' : 'Share'}
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={`Delete ${view.label}`}
                    onClick={() => void remove(view)}
                  >
                    Delete
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={save}>
        <label>
          View name
          <input value={label} maxLength={255} onChange={(e) => setLabel(e.target.value)} />
        </label>
        <label className="pwo-check">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} />
          Share with everyone
        </label>
        <button type="submit" className="primary" disabled={busy || !label.trim()}>
          Save view
        </button>
      </form>
      <ErrorBox error={error} />
    </>
  );
}
