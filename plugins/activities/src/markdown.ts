import { PROJECT_ENTITY_TYPES, type ProjectEntityType } from '@pipewright/sdk';

// What the server reads in an activity body: it stays markdown for clients to render, but its links name the
// people and entities the activity concerns, and its task list is the one part others may change.

/** AYON's limit on an activity body, in characters. */
export const MAX_BODY_LENGTH = 2000;

/** Entity types a body can mention, besides users. */
export const MENTIONABLE_ENTITIES = PROJECT_ENTITY_TYPES;
export type MentionableEntity = ProjectEntityType;

export interface Mentions {
  /** User names, each once, in the order they first appear. */
  users: string[];
  /** Entity ids by type, each once. */
  entities: { type: MentionableEntity; id: string }[];
}

// A markdown link whose target is "type:id"; images (![alt](src)) are not mentions.
const MENTION = /(?<!!)\[[^\]]*\]\(\s*([a-z]+):([^)\s]+)\s*\)/g;
const USER_NAME = /^[a-zA-Z0-9]([a-zA-Z0-9_.-]*[a-zA-Z0-9])?$/;
const ENTITY_ID = /^[0-9a-f]{32}$/;

/** The users and entities a body mentions with links such as [Alice](user:alice) or [sh010](folder:<id>). */
export function extractMentions(body: string): Mentions {
  const users = new Set<string>();
  const entities = new Map<string, { type: MentionableEntity; id: string }>();
  for (const [, kind, target] of body.matchAll(MENTION)) {
    if (kind === 'user') {
      if (USER_NAME.test(target) && target.length <= 128) users.add(target);
      continue;
    }
    if (!(MENTIONABLE_ENTITIES as readonly string[]).includes(kind)) continue;
    // Clients sometimes write ids as dashed UUIDs.
    const id = target.replaceAll('-', '').toLowerCase();
    if (ENTITY_ID.test(id)) entities.set(id, { type: kind as MentionableEntity, id });
  }
  return { users: [...users], entities: [...entities.values()] };
}

// A markdown task list item: "- [ ] text", "* [x] text", "1. [X] text".
const CHECKBOX = /^(\s*(?:[-*+]|\d+[.)])\s+)\[[ xX]\]/gm;

/** Whether a body holds a task list (AYON flags such comments with data.hasChecklist). */
export function hasChecklist(body: string): boolean {
  CHECKBOX.lastIndex = 0;
  return CHECKBOX.test(body);
}

/**
 * True when the new body differs from the old one only in the state of task list checkboxes: what someone who is
 * not the author may change in a comment (ticking or unticking an item of the author's list).
 */
export function onlyCheckboxesChanged(before: string, after: string): boolean {
  const shape = (body: string) => body.replace(CHECKBOX, '$1[?]');
  return shape(before) === shape(after);
}

/** A markdown link to a user or an entity, as server-made activities write them. */
export function mentionLink(label: string, type: string, id: string): string {
  return `[${label.replace(/[[\]]/g, '')}](${type}:${id})`;
}
