import type { Activity } from './activity';

// The inbox in kinds. On the wire an assignment notice is a "mention" of its assignee (its body links them, as
// AYON writes it) and AYON's inbox calls mentions important; here what is important is what the user marked to
// follow or a direct mention in what someone wrote, never a notice of an assignment, a status or a value.

export type Kind = 'conversation' | 'assignment' | 'status' | 'change' | 'news';

/** The kinds in the order the inbox shows them, with their headings. */
export const KINDS: { kind: Kind; title: string }[] = [
  { kind: 'conversation', title: 'Mentions and replies' },
  { kind: 'assignment', title: 'Assignments' },
  { kind: 'status', title: 'Status changes' },
  { kind: 'change', title: 'Value changes' },
  { kind: 'news', title: 'Other news' },
];

export function kindOf(message: Activity): Kind {
  if (message.type === 'assignee.add' || message.type === 'assignee.remove') return 'assignment';
  if (message.type === 'status.change') return 'status';
  if (message.type === 'attrib.change') return 'change';
  if (message.type === 'comment') return 'conversation';
  return 'news';
}

/** A direct mention in a comment, or news of what the user chose to watch. */
export function isImportant(message: Activity): boolean {
  if (['assignment', 'status', 'change'].includes(kindOf(message))) return false;
  return message.referenceType === 'mention' || message.referenceType === 'watching';
}

/** One row of the inbox: a message, or the notices one action made (eight assignments in one request). */
export interface Notice {
  key: string;
  kind: Kind;
  /** Newest first. */
  messages: Activity[];
}

/**
 * The messages of one action go together: same kind, author and batch (the server marks the notices of one
 * write), and for assignments the same assignee and direction. Messages without a batch stay on their own.
 */
function groupKey(message: Activity): string {
  const batch = message.data.batch;
  if (typeof batch !== 'string') return `${message.projectName}/${message.referenceId}`;
  const what =
    kindOf(message) === 'assignment'
      ? `${message.type}:${String(message.data.assignee)}`
      : `${message.type}:${String(message.data.newValue)}`;
  return [message.projectName, message.author?.name ?? '', batch, what].join('/');
}

/** The notices of a list of messages (newest first), each kind in its own list, important ones first if asked. */
export function noticesByKind(messages: Activity[], importantFirst: boolean): Map<Kind, Notice[]> {
  const byKey = new Map<string, Notice>();
  for (const message of messages) {
    const key = groupKey(message);
    const notice = byKey.get(key) ?? { key, kind: kindOf(message), messages: [] };
    notice.messages.push(message);
    byKey.set(key, notice);
  }
  const out = new Map<Kind, Notice[]>(KINDS.map(({ kind }) => [kind, []]));
  for (const notice of byKey.values()) out.get(notice.kind)!.push(notice);
  if (importantFirst) {
    const important = (notice: Notice) => notice.messages.some(isImportant);
    for (const [kind, notices] of out)
      out.set(kind, [...notices.filter(important), ...notices.filter((n) => !important(n))]);
  }
  return out;
}
