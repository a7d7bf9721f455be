import type { MouseEvent } from 'react';
import type { Suggestions } from './activity-routes';
import { go, overviewLink } from './links';
import type { MentionRenderer } from './markdown';

// Mentions both ways: shown in a body ([Jane](user:jane) as a chip, [comp](task:<id>) as a link into the overview),
// and offered while writing one (what follows an @, matched against the suggestions of the entity).

/** How mentions look in bodies of one project. */
export function mentionsIn(project: string): MentionRenderer {
  return (kind, target, label, key) => {
    if (kind === 'user')
      return (
        <span key={key} className="pwa-mention pwa-mention-user" title={`User ${target}`}>
          @{label || target}
        </span>
      );
    const link = overviewLink(project, kind, target);
    if (!link)
      return (
        <span key={key} className="pwa-mention" title={kind}>
          {label || kind}
        </span>
      );
    const open = (event: MouseEvent) => {
      // A new tab with the modifier keys, as any link; a plain click stays in the app.
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      go(link);
    };
    return (
      <a
        key={key}
        className="pwa-mention"
        href={link}
        onClick={open}
        title={`Open this ${kind} in the overview`}
      >
        {label || kind}
      </a>
    );
  };
}

/** One entry of the mention box. */
export interface MentionOption {
  key: string;
  /** What the list shows. */
  title: string;
  /** Below it: the kind and where it is. */
  detail: string;
  /** The markdown written into the body. */
  link: string;
  /** What the text box shows for it while writing ("@Jane Doe"). */
  shown: string;
}

const linkText = (label: string) => label.replace(/[[\]()]/g, '');

/** What an entry for a mention of target (user:jane, task:<id>, ...) written as label shows and writes. */
const mentionOf = (target: string, label: string, title = label) => ({
  key: target,
  title,
  shown: `@${linkText(label)}`,
  link: `[${linkText(label)}](${target})`,
});

/** Every mentionable person and entity, nearest first, as mention box entries. */
export function mentionOptions(
  suggestions: Suggestions,
): (MentionOption & { words: string; rank: number })[] {
  const options: (MentionOption & { words: string; rank: number })[] = [];
  for (const user of suggestions.users)
    options.push({
      ...mentionOf(`user:${user.name}`, user.fullName || user.name),
      detail: `person · ${user.name}`,
      words: `${user.name} ${user.fullName ?? ''}`,
      // People first at equal relevance: they are mentioned far more often than entities.
      rank: user.relevance * 10 + 3,
    });
  for (const task of suggestions.tasks)
    options.push({
      ...mentionOf(`task:${task.id}`, task.label || task.name),
      detail: `task · ${task.taskType}${task.parent ? ` in ${task.parent.name}` : ''}`,
      words: `${task.name} ${task.label ?? ''} ${task.taskType} ${task.parent?.name ?? ''}`,
      rank: task.relevance * 10 + 2,
    });
  for (const folder of suggestions.folders)
    options.push({
      ...mentionOf(`folder:${folder.id}`, folder.label || folder.name),
      detail: `folder · ${folder.folderType}`,
      words: `${folder.name} ${folder.label ?? ''} ${folder.folderType}`,
      rank: folder.relevance * 10 + 1,
    });
  for (const version of suggestions.versions)
    options.push({
      ...mentionOf(
        `version:${version.id}`,
        `${version.parent?.name ?? ''} ${version.name}`.trim(),
        `${version.parent?.name ?? 'version'} ${version.name}`,
      ),
      detail: 'version',
      words: `${version.name} ${version.parent?.name ?? ''}`,
      rank: version.relevance * 10,
    });
  return options.sort((a, b) => b.rank - a.rank);
}

/** The entries that match what was typed after the @ (every word somewhere in the entry), at most `limit`. */
export function matchingOptions<T extends { words: string }>(options: T[], typed: string, limit = 8): T[] {
  const words = typed
    .toLowerCase()
    .split(/[\s._-]+/)
    .filter(Boolean);
  return options
    .filter((option) => {
      const haystack = option.words.toLowerCase();
      return words.every((word) => haystack.includes(word));
    })
    .slice(0, limit);
}

/** The @word being typed just before the caret: where it starts and what follows the @, or null. */
export function typedMention(text: string, caret: number): { start: number; typed: string } | null {
  const match = /(^|\s)@([^\s@[\]()]{0,40})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, typed: match[2]! };
}

// While writing, the box shows a mention as a readable token ("@Jane Doe") and the body keeps the markdown link
// the server reads ([Jane Doe](user:jane)): a draft is the text as shown plus which token stands for which link.

/** A mention in a draft: the token the box shows and the markdown it stands for. */
export interface DraftMention {
  shown: string;
  link: string;
}

export interface Draft {
  text: string;
  mentions: DraftMention[];
}

const MENTION_LINK = /\[([^\]\n]*)\]\((user|task|folder|version):([^)\s]+)\)/g;

/** Add a mention to a draft's list; a token already standing for another link gets a distinguishing suffix. */
export function withMention(mentions: DraftMention[], wanted: DraftMention): [DraftMention[], string] {
  const taken = (shown: string) => mentions.find((mention) => mention.shown === shown);
  let shown = wanted.shown;
  for (let n = 2; taken(shown) && taken(shown)!.link !== wanted.link; n++) shown = `${wanted.shown} ${n}`;
  return [taken(shown) ? mentions : [...mentions, { shown, link: wanted.link }], shown];
}

/** A body's markdown as the box shows it. */
export function draftOf(markdown: string): Draft {
  let mentions: DraftMention[] = [];
  const text = markdown.replace(MENTION_LINK, (link, label: string, kind: string, target: string) => {
    let shown: string;
    [mentions, shown] = withMention(mentions, {
      shown: `@${label || (kind === 'user' ? target : kind)}`,
      link,
    });
    return shown;
  });
  return { text, mentions };
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the draft's tokens are in its text, each as a whole word ("@Jane Doe" but not in "@Jane Doevich"). */
export function tokensIn(draft: Draft): { start: number; end: number; mention: DraftMention }[] {
  if (draft.mentions.length === 0) return [];
  // Longest first: "@Jane Doe 2" before "@Jane Doe".
  const sorted = [...draft.mentions].sort((a, b) => b.shown.length - a.shown.length);
  const pattern = new RegExp(
    `(?<![\\w@])(?:${sorted.map((m) => escaped(m.shown)).join('|')})(?![\\w])`,
    'gu',
  );
  const found: { start: number; end: number; mention: DraftMention }[] = [];
  for (const match of draft.text.matchAll(pattern))
    found.push({
      start: match.index!,
      end: match.index! + match[0].length,
      mention: sorted.find((m) => m.shown === match[0])!,
    });
  return found;
}

/** The markdown a draft stands for: each token back to its link. */
export function markdownOf(draft: Draft): string {
  let out = '';
  let at = 0;
  for (const token of tokensIn(draft)) {
    out += draft.text.slice(at, token.start) + token.mention.link;
    at = token.end;
  }
  return out + draft.text.slice(at);
}
