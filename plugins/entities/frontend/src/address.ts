import type { Kind } from './model';

// Other screens link to a folder or task of the overview with ?folder=<id> or ?task=<id> (the inbox, mentions in
// comments); the web app switches to the project a link names with ?project=. The overview opens what the address
// names and then takes it out: the address is a way in, not the selection (a reload starts afresh, and switching
// projects does not carry an id of the last one along).

export interface EntityRef {
  kind: Kind;
  id: string;
}

const KINDS: Kind[] = ['folder', 'task'];
const ID = /^[0-9a-f]{32}$/;

/** The folder or task the address names, if any; it is removed from the address (without a history entry). */
export function takeEntityFromAddress(): EntityRef | null {
  const url = new URL(location.href);
  let found: EntityRef | null = null;
  for (const kind of KINDS) {
    const id = url.searchParams.get(kind)?.replaceAll('-', '').toLowerCase();
    if (!found && id && ID.test(id)) found = { kind, id };
    url.searchParams.delete(kind);
  }
  if (url.href !== location.href) history.replaceState(history.state, '', url);
  return found;
}
