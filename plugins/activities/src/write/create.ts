import { newId } from '@pipewright/sdk';
import type { EntityContext } from '../entity-context.js';
import { activityEvent, inboxMessages } from '../notifications.js';
import { ADDRESS_STRENGTH, type ReferenceInput } from '../store.js';
import type { PreparedCreate, WriteDeps, WriteResult } from './prepared.js';

type Reason = 'mention' | 'watching' | 'relation';

/** What a new activity refers to besides the users it tells: its origin, author, mentions and related entities. */
function referencesOf(p: PreparedCreate): ReferenceInput[] {
  const origin = p.context.origin;
  const references: ReferenceInput[] = [
    { referenceType: 'origin', entityType: origin.type, entityId: origin.id },
  ];
  if (p.author) references.push({ referenceType: 'author', entityType: 'user', entityName: p.author });

  const mentionedIds = new Set<string>();
  for (const entity of p.mentions.entities) {
    if (entity.id === origin.id) continue;
    mentionedIds.add(entity.id);
    references.push({ referenceType: 'mention', entityType: entity.type, entityId: entity.id });
  }
  // Watching an entity concerns only the entity itself: no relations, no one else to tell.
  if (p.type !== 'watch') {
    for (const entity of p.context.relatedEntities) {
      if (entity.id === origin.id || mentionedIds.has(entity.id)) continue;
      if (references.some((ref) => ref.referenceType === 'relation' && ref.entityId === entity.id)) continue;
      references.push({ referenceType: 'relation', entityType: entity.type, entityId: entity.id });
    }
  }
  return references;
}

/** Each user once, for the strongest reason; the author is never told about their own activity. */
function addressees(p: PreparedCreate, watchers: string[]) {
  const addressed = new Map<string, { type: Reason; data: Record<string, unknown> }>();
  const address = (name: string, type: Reason, data: Record<string, unknown> = {}) => {
    if (name === p.author) return;
    const current = addressed.get(name);
    if (!current || ADDRESS_STRENGTH[type] > ADDRESS_STRENGTH[current.type])
      addressed.set(name, { type, data });
  };
  for (const name of p.mentions.users) address(name, 'mention');
  if (p.type !== 'watch') {
    for (const name of watchers) address(name, 'watching');
    for (const user of p.context.relatedUsers) address(user.name, 'relation', { role: user.role });
  }
  return addressed;
}

/** Write a new activity with its references and files; its events are the created event and inbox messages. */
export async function writeCreate(deps: WriteDeps, p: PreparedCreate): Promise<WriteResult> {
  const { store, attachments } = deps;
  if (!(await store.insert(p.projectName, p, p.onConflict))) return { id: p.id, events: [] };
  const watchers = p.type === 'watch' ? [] : await store.watchers(p.projectName, p.context.origin.id);
  const references = referencesOf(p);
  const addressed = addressees(p, watchers);
  for (const [name, { type, data }] of addressed)
    references.push({ referenceType: type, entityType: 'user', entityName: name, data });

  await store.addReferences(p.projectName, p.id, references, p.at);
  await attachments.link(p.projectName, p.id, p.fileIds);

  const events = [
    activityEvent('created', p.projectName, p, references, p.author),
    ...inboxMessages(
      p.projectName,
      p,
      [...addressed].map(([name, { type }]) => ({ name, referenceType: type })),
      p.author,
    ),
  ];
  if (p.authorWatches && p.author && !watchers.includes(p.author)) {
    const watch = await writeCreate(deps, watchOf(p.context, p.author, p.author, p.projectName));
    events.push(...watch.events);
  }
  return { id: p.id, events };
}

/** A watch activity: the watcher follows the entity from now on. */
export function watchOf(
  context: EntityContext,
  watcher: string,
  author: string | null,
  projectName: string,
): PreparedCreate {
  const data: Record<string, unknown> = { origin: context.origin, parents: context.parents, watcher };
  if (author) data.author = author;
  return {
    kind: 'create',
    projectName,
    id: newId(),
    type: 'watch',
    body: '',
    tags: [],
    data,
    at: new Date(),
    context,
    author,
    mentions: { users: [], entities: [] },
    fileIds: [],
    onConflict: 'fail',
    authorWatches: false,
  };
}
