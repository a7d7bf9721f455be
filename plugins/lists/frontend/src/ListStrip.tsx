import type { ScreenProps } from '@pipewright/sdk/screen';
import { exposedScreen, useLoaded } from '@pipewright/sdk/ui';
import { kindLabel, readList, type ListItem } from './api';
import './lists.css';

// A list of versions inside the review screen (embedded there through ScreenProps.Extension when the address names
// a list, ?list=): where the version on the stage is in the list, the previous and next ones, and every item to
// jump to. Choosing one asks the review screen to open it (onOpen); the review screen owns the address.

const shortName = (item: ListItem) => {
  const path = item.entity?.path;
  // "/sq010/sh010/renderComp/v002" reads as "sh010 renderComp v002" in a strip.
  return path ? path.split('/').filter(Boolean).slice(-3).join(' ') : item.entity?.name || 'not readable';
};

export default exposedScreen(function ListStrip({
  client,
  project,
  listId,
  versionId,
  onOpen,
}: ScreenProps & { listId: string; versionId: string | null; onOpen(versionId: string): void }) {
  const list = useLoaded(
    () => (project ? readList(client, project, listId) : Promise.reject(new Error('no project is chosen'))),
    [client, project, listId],
  );
  if (list.error) return <p className="muted pw-small">The list could not be read: {list.error}</p>;
  const data = list.data;
  if (!data) return null;
  const items = data.items.filter((item) => item.entity);
  const at = items.findIndex((item) => item.entityId === versionId);
  const previous = at > 0 ? items[at - 1] : null;
  const next = at >= 0 && at < items.length - 1 ? items[at + 1] : !versionId || at < 0 ? items[0] : null;
  return (
    <nav className="pwl-strip" aria-label={`${kindLabel(data.entityListType)} ${data.label}`}>
      <strong>{data.label}</strong>
      <span className="muted pw-small">
        {at >= 0 ? `${at + 1} of ${items.length}` : `${items.length} versions; this one is not in the list`}
      </span>
      <button type="button" disabled={!previous} onClick={() => previous && onOpen(previous.entityId)}>
        Previous in list
      </button>
      <button type="button" disabled={!next} onClick={() => next && onOpen(next.entityId)}>
        Next in list
      </button>
      <ol className="pwl-strip-items">
        {items.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className={item.entityId === versionId ? 'pwl-strip-item pwl-current' : 'pwl-strip-item'}
              aria-current={item.entityId === versionId ? 'true' : undefined}
              title={item.entity?.path ?? undefined}
              onClick={() => onOpen(item.entityId)}
            >
              {shortName(item)}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
});
