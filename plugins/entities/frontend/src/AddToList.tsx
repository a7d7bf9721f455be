import { useEffect, useState, type FormEvent } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { ErrorBox, messageOf } from '@pipewright/sdk/ui';
import type { Entity } from './model';

// "Add to list" on the overview's selection: the selected tasks or folders, or the latest versions published
// from them, go into an entity list of the lists addon (a playlist or a review session), a new one or one that
// exists. The lists screen is the lists addon's; this only writes through its REST routes and links there.

type ListType = 'task' | 'folder' | 'version';

interface ListChoice {
  id: string;
  label: string;
  entityType: string;
  entityListType: string;
}

const LISTS_PATH = '/addon/lists/lists_screens';
const TYPE_NAMES: Record<ListType, string> = { task: 'tasks', folder: 'folders', version: 'versions' };
const NEW = 'new';

const LISTS = `
query AddToListChoices($project: String!) {
  project(name: $project) {
    entityLists(first: 1000) { edges { node { id label entityType entityListType } } }
  }
}`;

const LISTED = `
query Listed($project: String!, $id: String!) {
  project(name: $project) { entityList(id: $id) { items(first: 10000) { edges { entityId } } } }
}`;

// The latest version of each product published from these tasks, and of each product of these folders.
const LATEST_VERSIONS = `
query LatestVersions($project: String!, $taskIds: [String!], $folderIds: [String!]) {
  project(name: $project) {
    versions(taskIds: $taskIds, latestOnly: true, first: 5000) { edges { node { id } } }
    products(folderIds: $folderIds, first: 5000) { edges { node { latestVersion { id } } } }
  }
}`;

/** The ids to add for a list of this type: the selected entities of that type, or their latest versions. */
async function entityIdsFor(client: PipewrightClient, project: string, type: ListType, chosen: Entity[]) {
  if (type !== 'version') return chosen.filter((entity) => entity.kind === type).map((entity) => entity.id);
  const ids = (kind: Entity['kind']) => chosen.filter((e) => e.kind === kind).map((e) => e.id);
  const [taskIds, folderIds] = [ids('task'), ids('folder')];
  const answer = await client.graphql<{
    project: {
      versions: { edges: { node: { id: string } }[] };
      products: { edges: { node: { latestVersion: { id: string } | null } }[] };
    };
  }>(LATEST_VERSIONS, {
    project,
    // An empty list would match nothing anyway; null would match everything.
    taskIds: taskIds.length ? taskIds : ['0'.repeat(32)],
    folderIds: folderIds.length ? folderIds : ['0'.repeat(32)],
  });
  const found = [
    ...answer.project.versions.edges.map((edge) => edge.node.id),
    ...answer.project.products.edges.flatMap((edge) => edge.node.latestVersion?.id ?? []),
  ];
  return [...new Set(found)];
}

const count = (n: number, type: ListType) =>
  `${n} ${n === 1 ? TYPE_NAMES[type].slice(0, -1) : TYPE_NAMES[type]}`;

/** The toolbar button and its dialog. `chosen` is the overview's selection (else the focused row). */
export function AddToList({
  client,
  project,
  chosen,
}: {
  client: PipewrightClient;
  project: string;
  chosen: Entity[];
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={chosen.length === 0}
        title={
          chosen.length
            ? 'Put the selection, or its latest versions, in a list'
            : 'Select tasks or folders first'
        }
        onClick={() => setOpen(true)}
      >
        Add to list
      </button>
      {open && (
        <AddToListDialog client={client} project={project} chosen={chosen} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function AddToListDialog({
  client,
  project,
  chosen,
  onClose,
}: {
  client: PipewrightClient;
  project: string;
  chosen: Entity[];
  onClose(): void;
}) {
  // The selection is taken when the dialog opens: clicking rows behind it must not change what is added.
  const [entities] = useState(chosen);
  const tasks = entities.filter((e) => e.kind === 'task').length;
  const folders = entities.length - tasks;
  const types: ListType[] = [
    ...(tasks ? ['task' as const] : []),
    ...(folders ? ['folder' as const] : []),
    'version',
  ];
  const [lists, setLists] = useState<ListChoice[] | null>(null);
  const [listId, setListId] = useState(NEW);
  const [label, setLabel] = useState('');
  const [kind, setKind] = useState('generic');
  const [type, setType] = useState<ListType>(types[0]!);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ text: string; listId: string; label: string } | null>(null);

  useEffect(() => {
    client.graphql<{ project: { entityLists: { edges: { node: ListChoice }[] } } }>(LISTS, { project }).then(
      // Every list of the project: the choices below show those of the types the selection can go into.
      (answer) => setLists(answer.project.entityLists.edges.map((edge) => edge.node)),
      (failure) => setError(`The lists could not be read: ${messageOf(failure)}`),
    );
    // Read once when the dialog opens.
  }, [client, project]);

  const existing = lists?.find((list) => list.id === listId) ?? null;
  const targetType: ListType = existing ? (existing.entityType as ListType) : type;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const ids = await entityIdsFor(client, project, targetType, entities);
      if (ids.length === 0) {
        setError(
          targetType === 'version'
            ? 'Nothing was published from the selection yet: there is no version to add.'
            : `The selection has no ${TYPE_NAMES[targetType]}.`,
        );
        return;
      }
      if (existing) {
        const listed = await client.graphql<{
          project: { entityList: { items: { edges: { entityId: string }[] } } };
        }>(LISTED, { project, id: existing.id });
        const already = new Set(listed.project.entityList.items.edges.map((edge) => edge.entityId));
        const fresh = ids.filter((id) => !already.has(id));
        if (fresh.length)
          await client.PATCH('/api/projects/{project_name}/lists/{list_id}/items', {
            params: { path: { project_name: project, list_id: existing.id } },
            body: { mode: 'merge', items: fresh.map((entityId) => ({ entityId })) },
          });
        const skipped = ids.length - fresh.length;
        setDone({
          text:
            `Added ${count(fresh.length, targetType)} to ${existing.label}.` +
            (skipped
              ? ` ${count(skipped, targetType)} ${skipped === 1 ? 'was' : 'were'} in it already.`
              : ''),
          listId: existing.id,
          label: existing.label,
        });
      } else {
        const created = await client.POST('/api/projects/{project_name}/lists', {
          params: { path: { project_name: project } },
          body: {
            label: label.trim(),
            entityType: targetType,
            entityListType: kind,
            items: ids.map((entityId) => ({ entityId })),
          },
        });
        setDone({
          text: `Created ${label.trim()} with ${count(ids.length, targetType)}.`,
          listId: created.id,
          label: label.trim(),
        });
      }
    } catch (failure) {
      setError(`Nothing was added: ${messageOf(failure)}`);
    } finally {
      setBusy(false);
    }
  };

  const listHref = done && `${LISTS_PATH}?${new URLSearchParams({ project, list: done.listId })}`;
  return (
    <div className="pwo-dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <form className="pwo-dialog" role="dialog" aria-label="Add to a list" onSubmit={submit}>
        <h2>Add to a list</h2>
        <p className="muted">
          Selected:{' '}
          {[tasks && count(tasks, 'task'), folders && count(folders, 'folder')].filter(Boolean).join(', ')}
        </p>
        {done ? (
          <>
            <p role="status">{done.text}</p>
            <div className="pwo-dialog-actions">
              <a
                className="pw-link"
                href={listHref!}
                onClick={(e) => {
                  e.preventDefault();
                  history.pushState(null, '', listHref!);
                  window.dispatchEvent(new PopStateEvent('popstate'));
                }}
              >
                Open {done.label}
              </a>
              <span className="pw-grow" />
              <button type="button" className="primary" onClick={onClose}>
                Done
              </button>
            </div>
          </>
        ) : (
          <>
            <label>
              List
              <select
                aria-label="List"
                value={listId}
                onChange={(e) => setListId(e.target.value)}
                disabled={!lists}
              >
                <option value={NEW}>A new list…</option>
                {types.map((t) => {
                  const ofType = lists?.filter((list) => list.entityType === t) ?? [];
                  return (
                    ofType.length > 0 && (
                      <optgroup key={t} label={`Lists of ${TYPE_NAMES[t]}`}>
                        {ofType.map((list) => (
                          <option key={list.id} value={list.id}>
                            {list.label}
                          </option>
                        ))}
                      </optgroup>
                    )
                  );
                })}
              </select>
            </label>
            {!existing && (
              <>
                <label>
                  Name of the new list
                  <input
                    aria-label="Name of the new list"
                    value={label}
                    required
                    maxLength={255}
                    placeholder="Dailies 2026-11-27"
                    onChange={(e) => setLabel(e.target.value)}
                  />
                </label>
                <div className="pwo-dialog-pair">
                  <label>
                    Kind
                    <select aria-label="Kind" value={kind} onChange={(e) => setKind(e.target.value)}>
                      <option value="generic">Playlist</option>
                      <option value="review-session">Review session</option>
                    </select>
                  </label>
                  <label>
                    Holds
                    <select
                      aria-label="Holds"
                      value={type}
                      onChange={(e) => setType(e.target.value as ListType)}
                    >
                      {types.map((t) => (
                        <option key={t} value={t}>
                          {t === 'version'
                            ? 'Latest versions'
                            : TYPE_NAMES[t][0]!.toUpperCase() + TYPE_NAMES[t].slice(1)}
                        </option>
                      ))}
                    </select>
                  </label>
                </div>
              </>
            )}
            <p className="muted">
              {targetType === 'version'
                ? 'Adds the latest version of each product published from the selected tasks and folders.'
                : `Adds the ${count(targetType === 'task' ? tasks : folders, targetType)} selected.`}
            </p>
            {error && <ErrorBox error={error} />}
            <div className="pwo-dialog-actions">
              <button type="submit" className="primary" disabled={busy || (!existing && !label.trim())}>
                {busy ? 'Adding…' : 'Add to list'}
              </button>
              <button type="button" onClick={onClose}>
                Cancel
              </button>
            </div>
          </>
        )}
      </form>
    </div>
  );
}
