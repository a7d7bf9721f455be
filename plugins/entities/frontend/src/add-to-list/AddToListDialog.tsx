import { useState, type FormEvent } from 'react';
import { ErrorBox, messageOf, Options, useClient, useLoaded } from '@pipewright/sdk/ui';
import { Actions, Dialog } from '../dialogs/Dialog';
import type { Entity } from '../model';
import {
  addToExisting,
  count,
  createList,
  entityIdsFor,
  listsOf,
  LISTS_PATH,
  TYPE_NAMES,
  type Added,
  type ListType,
} from './lists';

const NEW = 'new';

/** Choose a list (or name a new one) and add the selection, or its latest versions, to it. */
export function AddToListDialog({
  project,
  chosen,
  onClose,
}: {
  project: string;
  chosen: Entity[];
  onClose(): void;
}) {
  const client = useClient();
  // The selection is taken when the dialog opens: clicking rows behind it must not change what is added.
  const [entities] = useState(chosen);
  const tasks = entities.filter((e) => e.kind === 'task').length;
  const folders = entities.length - tasks;
  const types: ListType[] = [
    ...(tasks ? ['task' as const] : []),
    ...(folders ? ['folder' as const] : []),
    'version',
  ];
  // Every list of the project, read once when the dialog opens: the choices below show those of the types the
  // selection can go into.
  const listed = useLoaded(() => listsOf(client, project), [client, project]);
  const lists = listed.data;
  const [listId, setListId] = useState(NEW);
  const [label, setLabel] = useState('');
  const [kind, setKind] = useState('generic');
  const [type, setType] = useState<ListType>(types[0]!);
  const [busy, setBusy] = useState(false);
  const [failed, setError] = useState<string | null>(null);
  const error = failed ?? (listed.error && `The lists could not be read: ${listed.error}`);
  const [done, setDone] = useState<Added | null>(null);

  const existing = lists?.find((list) => list.id === listId) ?? null;
  const targetType: ListType = existing ? (existing.entityType as ListType) : type;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const ids = await entityIdsFor(client, project, targetType, entities);
      if (ids.length === 0)
        return setError(
          targetType === 'version'
            ? 'Nothing was published from the selection yet: there is no version to add.'
            : `The selection has no ${TYPE_NAMES[targetType]}.`,
        );
      setDone(
        existing
          ? await addToExisting(client, project, existing, targetType, ids)
          : await createList(client, project, { label: label.trim(), kind }, targetType, ids),
      );
    } catch (failure) {
      setError(`Nothing was added: ${messageOf(failure)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    // Escape does not close this one (it never did): only Cancel, Done or a click beside it.
    <Dialog label="Add to a list" closeOnEscape={false} onSubmit={submit} onClose={onClose}>
      <p className="muted">
        Selected:{' '}
        {[tasks && count(tasks, 'task'), folders && count(folders, 'folder')].filter(Boolean).join(', ')}
      </p>
      {done ? (
        <AddedStep project={project} added={done} onClose={onClose} />
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
                      <Options items={ofType} value={(list) => list.id} label={(list) => list.label} />
                    </optgroup>
                  )
                );
              })}
            </select>
          </label>
          {!existing && (
            <NewListFields
              {...{ label, kind, type, types }}
              onLabel={setLabel}
              onKind={setKind}
              onType={setType}
            />
          )}
          <p className="muted">
            {targetType === 'version'
              ? 'Adds the latest version of each product published from the selected tasks and folders.'
              : `Adds the ${count(targetType === 'task' ? tasks : folders, targetType)} selected.`}
          </p>
          {error && <ErrorBox error={error} />}
          <Actions
            busy={busy}
            doing="Adding…"
            done="Add to list"
            disabled={!existing && !label.trim()}
            onClose={onClose}
          />
        </>
      )}
    </Dialog>
  );
}

function NewListFields({
  label,
  kind,
  type,
  types,
  onLabel,
  onKind,
  onType,
}: {
  label: string;
  kind: string;
  type: ListType;
  /** The types the selection can fill a list of. */
  types: ListType[];
  onLabel(label: string): void;
  onKind(kind: string): void;
  onType(type: ListType): void;
}) {
  return (
    <>
      <label>
        Name of the new list
        <input
          aria-label="Name of the new list"
          value={label}
          required
          maxLength={255}
          placeholder="Dailies 2026-11-27"
          onChange={(e) => onLabel(e.target.value)}
        />
      </label>
      <div className="pwo-dialog-pair">
        <label>
          Kind
          <select aria-label="Kind" value={kind} onChange={(e) => onKind(e.target.value)}>
            <option value="generic">Playlist</option>
            <option value="review-session">Review session</option>
          </select>
        </label>
        <label>
          Holds
          <select aria-label="Holds" value={type} onChange={(e) => onType(e.target.value as ListType)}>
            <Options
              items={types}
              value={(t) => t}
              label={(t) =>
                t === 'version' ? 'Latest versions' : TYPE_NAMES[t][0]!.toUpperCase() + TYPE_NAMES[t].slice(1)
              }
            />
          </select>
        </label>
      </div>
    </>
  );
}

/** What was added, with a link to the list on the lists screen. */
function AddedStep({ project, added, onClose }: { project: string; added: Added; onClose(): void }) {
  const listHref = `${LISTS_PATH}?${new URLSearchParams({ project, list: added.listId })}`;
  return (
    <>
      <p role="status">{added.text}</p>
      <div className="pwo-dialog-actions">
        <a
          className="pw-link"
          href={listHref}
          onClick={(e) => {
            e.preventDefault();
            history.pushState(null, '', listHref);
            window.dispatchEvent(new PopStateEvent('popstate'));
          }}
        >
          Open {added.label}
        </a>
        <span className="pw-grow" />
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </>
  );
}
