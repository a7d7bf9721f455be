import { NotFound, newId } from '@pipewright/sdk';
import { extractMentions, hasChecklist, type Mentions } from '../markdown.js';
import { checkBody, clientData } from './rules.js';
import type { CreateOptions, NewActivity, PreparedCreate, WriteDeps } from './prepared.js';

/**
 * A new activity on an entity, whoever makes it, with everything its write needs read beforehand: the entity's
 * context, the attached files and the mentions that exist.
 */
export async function prepareActivity(
  deps: WriteDeps,
  projectName: string,
  input: NewActivity,
  options: CreateOptions,
): Promise<PreparedCreate> {
  const loc = options.loc ?? ['body'];
  const body = input.body ?? '';
  checkBody(body, [...loc, 'body']);
  const context = await deps.reader.context(projectName, input.entityType, input.entityId);
  if (!context) throw new NotFound(`${input.entityType} ${input.entityId} not found`);
  const files = input.files
    ? await deps.attachments.describe(projectName, input.files, [...loc, 'files'])
    : null;
  const data: Record<string, unknown> = {
    ...clientData(input.data),
    origin: context.origin,
    parents: context.parents,
  };
  if (options.author) data.author = options.author;
  if (files) data.files = files;
  if (input.activityType === 'comment' && hasChecklist(body)) data.hasChecklist = true;
  return {
    kind: 'create',
    projectName,
    id: input.id ?? newId(),
    type: input.activityType,
    body,
    tags: input.tags ?? [],
    data,
    at: input.timestamp ? new Date(input.timestamp) : new Date(),
    context,
    author: options.author,
    mentions: await resolveMentions(deps, projectName, body),
    fileIds: files?.map((file) => file.id) ?? [],
    onConflict: options.onConflict,
    authorWatches: options.authorWatches,
  };
}

/** Mentioned users that exist and mentioned entities that exist in the project. */
export async function resolveMentions(deps: WriteDeps, projectName: string, body: string): Promise<Mentions> {
  const found = extractMentions(body);
  const users: string[] = [];
  for (const name of found.users) {
    const user = await deps.users.get(name);
    if (user && !users.includes(user.name)) users.push(user.name);
  }
  const entities: Mentions['entities'] = [];
  const types = [...new Set(found.entities.map((entity) => entity.type))];
  for (const type of types) {
    const ids = found.entities.filter((entity) => entity.type === type).map((entity) => entity.id);
    const existing = await deps.reader.existing(projectName, type, ids);
    for (const id of ids) if (existing.has(id)) entities.push({ type, id });
  }
  return { users, entities };
}
