import { useEffect, useState, type MouseEvent } from 'react';
import { ConfirmButton, ErrorBox, Saved, useAction, useClient, useLoaded } from '@pipewright/sdk/ui';
import {
  deleteList,
  itemName,
  kindLabel,
  orderItems,
  pluralOf,
  readList,
  removeItem,
  renameList,
  type ListItem,
} from './api';
import { AddItems } from './AddItems';
import { go, itemLink } from './links';
import { ReviewReportButton } from './ReviewReport';
import { GuestLinksButton } from './GuestLinks';

/** One list: its name and kind, its items in order (reordered by dragging or the arrows), and what to do with it. */
export function ListDetailView({
  project,
  id,
  changes,
  onChanged,
  onDeleted,
}: {
  project: string;
  id: string;
  /** Counts the changes to the project's lists made anywhere: the list is read again at each. */
  changes: number;
  /** The list's name or count changed: the index reads the lists again. */
  onChanged(): void;
  onDeleted(): void;
}) {
  const client = useClient();
  const list = useLoaded(() => readList(client, project, id), [client, project, id, changes]);
  // The order shown while a reorder is on its way to the server.
  const [pending, setPending] = useState<ListItem[] | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [dragged, setDragged] = useState<string | null>(null);
  const action = useAction();
  const data = list.data;
  // The moved order stays on screen until the list is read again, so it never flickers back to the old one.
  useEffect(() => setPending(null), [data]);
  if (!data)
    return list.error ? (
      <ErrorBox error={`The list could not be read: ${list.error}`} />
    ) : (
      <p className="muted">Reading the list…</p>
    );
  const items = pending ?? data.items;
  const changed = () => {
    list.reload();
    onChanged();
  };

  const reorder = (from: number, to: number) => {
    // One move at a time: the next one starts from the order the server holds.
    if (action.busy || to < 0 || to >= items.length || from === to) return;
    const next = [...items];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    setPending(next);
    void action
      .run(
        () =>
          orderItems(
            client,
            project,
            id,
            next.map((item) => item.id),
          ),
        `Moved ${itemName(moved!)} to place ${to + 1}.`,
      )
      .then(list.reload);
  };

  const open = (event: MouseEvent<HTMLAnchorElement>, href: string) => {
    event.preventDefault();
    go(href);
  };
  const reviewable = data.entityType === 'version' && items.length > 0;
  return (
    <section className="pwl-detail" aria-label={`List ${data.label}`}>
      <header className="pw-header">
        {renaming ? (
          <RenameForm
            label={data.label}
            onCancel={() => setRenaming(false)}
            onRename={(label) =>
              action.run(async () => {
                await renameList(client, project, id, label);
                setRenaming(false);
                changed();
              }, `Renamed to ${label}.`)
            }
          />
        ) : (
          <h2>{data.label}</h2>
        )}
        <span className="muted">
          {kindLabel(data.entityListType)} of {pluralOf(data.entityType).toLowerCase()} · {items.length}{' '}
          {items.length === 1 ? 'item' : 'items'}
        </span>
        <span className="pw-grow" />
        {reviewable && (
          <a
            className="pwl-button-link"
            href={itemLink(project, 'version', items[0]!.entityId, id)!}
            onClick={(e) => open(e, itemLink(project, 'version', items[0]!.entityId, id)!)}
          >
            Open in review
          </a>
        )}
        {reviewable && <ReviewReportButton project={project} id={id} label={data.label} />}
        {reviewable && <GuestLinksButton project={project} shared={{ listId: id }} />}
        {!renaming && (
          <button type="button" onClick={() => setRenaming(true)}>
            Rename
          </button>
        )}
        <ConfirmButton
          label="Delete list"
          confirmLabel={`Delete ${data.label}`}
          onConfirm={() =>
            void action.run(async () => {
              await deleteList(client, project, id);
              onDeleted();
            })
          }
        />
      </header>
      <ErrorBox error={action.error} />
      <Saved message={action.done} />
      {items.length === 0 ? (
        <p className="muted">
          This list is empty. Add {pluralOf(data.entityType).toLowerCase()} below, or from the overview:
          select rows there and use Add to list.
        </p>
      ) : (
        <ol className="pwl-items" aria-label="Items">
          {items.map((item, index) => {
            const name = itemName(item);
            const href = itemLink(project, data.entityType, item.entityId, id);
            return (
              <li
                key={item.id}
                className={dragged === item.id ? 'pwl-item pwl-dragged' : 'pwl-item'}
                aria-label={name}
                draggable
                onDragStart={(e) => {
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', item.id);
                  setDragged(item.id);
                }}
                onDragEnd={() => setDragged(null)}
                onDragOver={(e) => {
                  if (dragged) e.preventDefault();
                }}
                onDrop={(e) => {
                  e.preventDefault();
                  const from = items.findIndex((other) => other.id === dragged);
                  setDragged(null);
                  if (from >= 0) reorder(from, index);
                }}
              >
                <span className="pwl-handle" aria-hidden="true" title="Drag to reorder">
                  ⠿
                </span>
                <span className="pwl-place muted">{index + 1}</span>
                <span className="pwl-name">
                  {href ? (
                    <a className="pw-link" href={href} onClick={(e) => open(e, href)}>
                      {name}
                    </a>
                  ) : (
                    name
                  )}
                </span>
                <button
                  type="button"
                  aria-label={`Move ${name} up`}
                  disabled={index === 0 || action.busy}
                  onClick={() => reorder(index, index - 1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  aria-label={`Move ${name} down`}
                  disabled={index === items.length - 1 || action.busy}
                  onClick={() => reorder(index, index + 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  aria-label={`Remove ${name}`}
                  disabled={action.busy}
                  onClick={() =>
                    void action
                      .run(() => removeItem(client, project, id, item.id), `Removed ${name}.`)
                      .then(changed)
                  }
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <AddItems
        project={project}
        listId={id}
        type={data.entityType}
        listed={new Set(items.map((item) => item.entityId))}
        onAdded={changed}
      />
      <ErrorBox error={list.error && `The list could not be read again: ${list.error}`} />
    </section>
  );
}

function RenameForm({
  label,
  onRename,
  onCancel,
}: {
  label: string;
  onRename(label: string): void;
  onCancel(): void;
}) {
  const [value, setValue] = useState(label);
  return (
    <form
      className="pw-inline"
      aria-label="Rename the list"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) onRename(value.trim());
      }}
    >
      <input
        aria-label="New name"
        value={value}
        maxLength={255}
        autoFocus
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" className="primary" disabled={!value.trim() || value.trim() === label}>
        Save name
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
