import { useState } from 'react';
import { ErrorBox, Field, Options, useAction, useClient } from '@pipewright/sdk/ui';
import {
  createList,
  ENTITY_TYPES,
  KINDS,
  kindLabel,
  pluralOf,
  type ListEntityType,
  type ListSummary,
} from './api';

/** The project's lists by the type of what they hold, and the form that creates one. */
export function ListIndex({
  project,
  lists,
  chosen,
  onChoose,
  onCreated,
}: {
  project: string;
  lists: ListSummary[] | null;
  chosen: string | null;
  onChoose(id: string): void;
  onCreated(id: string): void;
}) {
  const types = ENTITY_TYPES.filter((type) => lists?.some((list) => list.entityType === type));
  return (
    <nav className="pwl-index" aria-label="Lists of the project">
      <NewList project={project} onCreated={onCreated} />
      {lists && lists.length === 0 && <p className="muted">No lists yet.</p>}
      {!lists && <p className="muted">Reading the lists…</p>}
      {types.map((type) => (
        <section key={type} aria-label={`Lists of ${pluralOf(type).toLowerCase()}`}>
          <h2 className="pw-subheading">{pluralOf(type)}</h2>
          <ul className="pwl-index-list">
            {lists!
              .filter((list) => list.entityType === type)
              .map((list) => (
                <li key={list.id}>
                  <button
                    type="button"
                    className={list.id === chosen ? 'pwl-index-item pwl-current' : 'pwl-index-item'}
                    aria-current={list.id === chosen ? 'true' : undefined}
                    onClick={() => onChoose(list.id)}
                  >
                    <span>{list.label}</span>
                    <span className="muted pw-small">
                      {kindLabel(list.entityListType)} · {list.count}
                    </span>
                  </button>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}

function NewList({ project, onCreated }: { project: string; onCreated(id: string): void }) {
  const client = useClient();
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState('');
  const [kind, setKind] = useState<string>('generic');
  const [type, setType] = useState<ListEntityType>('version');
  const action = useAction();
  if (!open)
    return (
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        New list
      </button>
    );
  return (
    <form
      className="pw-form pwl-new"
      aria-label="New list"
      onSubmit={action.submit(async () => {
        const id = await createList(client, project, {
          label: label.trim(),
          entityType: type,
          entityListType: kind,
        });
        setOpen(false);
        setLabel('');
        onCreated(id);
      })}
    >
      <Field label="Name">
        {(input) => (
          <input
            {...input}
            value={label}
            required
            maxLength={255}
            placeholder="Dailies 2026-11-27"
            onChange={(e) => setLabel(e.target.value)}
          />
        )}
      </Field>
      <Field label="Kind">
        {(input) => (
          <select {...input} value={kind} onChange={(e) => setKind(e.target.value)}>
            <Options items={KINDS} value={(k) => k.value} label={(k) => k.label} />
          </select>
        )}
      </Field>
      <Field label="Holds" hint="A list holds entities of one type.">
        {(input) => (
          <select {...input} value={type} onChange={(e) => setType(e.target.value as ListEntityType)}>
            <Options items={ENTITY_TYPES} value={(t) => t} label={(t) => pluralOf(t)} />
          </select>
        )}
      </Field>
      <ErrorBox error={action.error} prefix="The list was not created:" />
      <div className="pw-row">
        <button type="submit" className="primary" disabled={action.busy || !label.trim()}>
          Create list
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
