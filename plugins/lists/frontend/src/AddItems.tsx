import { useState } from 'react';
import { ErrorBox, useAction, useClient } from '@pipewright/sdk/ui';
import { addItems, pluralOf, searchable, searchEntities, type FoundEntity, type ListEntityType } from './api';

/** Find entities of the list's type by name and add them at the end of the list. */
export function AddItems({
  project,
  listId,
  type,
  listed,
  onAdded,
}: {
  project: string;
  listId: string;
  type: ListEntityType;
  /** Entities already in the list: shown as such rather than offered again. */
  listed: Set<string>;
  onAdded(): void;
}) {
  const client = useClient();
  const [text, setText] = useState('');
  const [found, setFound] = useState<FoundEntity[] | null>(null);
  const search = useAction();
  const add = useAction();
  if (!searchable(type)) return null;
  const plural = pluralOf(type).toLowerCase();
  return (
    <section className="pwl-add" aria-label={`Add ${plural}`}>
      <form
        className="pw-inline"
        onSubmit={search.submit(async () =>
          setFound(await searchEntities(client, project, type, text.trim())),
        )}
      >
        <input
          type="search"
          aria-label={`Find ${plural} to add`}
          placeholder={`Find ${plural} by name…`}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" disabled={search.busy}>
          Find
        </button>
      </form>
      <ErrorBox error={search.error} prefix="The search failed:" />
      <ErrorBox error={add.error} prefix="Not added:" />
      {found && found.length === 0 && <p className="muted">Nothing of that name.</p>}
      {found && found.length > 0 && (
        <ul className="pwl-found">
          {found.map((entity) => {
            const name = entity.path || entity.name;
            return (
              <li key={entity.id}>
                <span>{name}</span>
                {listed.has(entity.id) ? (
                  <span className="muted pw-small">in the list</span>
                ) : (
                  <button
                    type="button"
                    aria-label={`Add ${name}`}
                    disabled={add.busy}
                    onClick={() =>
                      void add.run(() => addItems(client, project, listId, [entity.id])).then(onAdded)
                    }
                  >
                    Add
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
