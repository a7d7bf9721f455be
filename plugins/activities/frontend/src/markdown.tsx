import { Fragment, type ReactNode } from 'react';

// Activity bodies are markdown written by people and by the server. They are turned into React elements here,
// never into HTML strings: whatever a body holds (<script>, onerror=, javascript: links) ends up as text. Only the
// part of markdown people write in comments is understood: paragraphs, line breaks, headings, lists with
// checkboxes, quotes, code, emphasis and links; links to user:, folder:, task:, ... are mentions.

/** What a link to a user or an entity turns into: the feed decides (a chip, a link into the overview). */
export type MentionRenderer = (kind: string, target: string, label: string, key: string) => ReactNode;

export interface MarkdownOptions {
  mention: MentionRenderer;
  /**
   * Called with the line number (0-based, in the body) of a task list item whose checkbox was clicked; without it
   * checkboxes are shown but cannot be ticked.
   */
  onToggle?: (line: number) => void;
}

// The same checkbox shape the server recognises (plugins/activities/src/markdown.ts), so a tick changes exactly
// the character the server compares.
const TASK_ITEM = /^(\s*(?:[-*+]|\d+[.)])\s+)\[([ xX])\](.*)$/;
const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;

/** The body with the checkbox on that line ticked or unticked; nothing else changes. */
export function toggleCheckbox(body: string, line: number): string {
  const lines = body.split('\n');
  const match = TASK_ITEM.exec(lines[line] ?? '');
  if (!match) return body;
  lines[line] = `${match[1]}[${match[2] === ' ' ? 'x' : ' '}]${match[3]}`;
  return lines.join('\n');
}

type Block =
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; lines: string[] }
  | { kind: 'list'; ordered: boolean; items: ListItem[] };

interface ListItem {
  text: string;
  depth: number;
  /** null: a plain item; true/false: a task item, ticked or not. */
  checked: boolean | null;
  line: number;
}

function blocksOf(body: string): Block[] {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    if (FENCE.test(line)) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !FENCE.test(lines[i]!)) code.push(lines[i++]!);
      i++;
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) quoted.push(QUOTE.exec(lines[i++]!)![1]!);
      blocks.push({ kind: 'quote', lines: quoted });
      continue;
    }
    const first = LIST_ITEM.exec(line);
    if (first) {
      const items: ListItem[] = [];
      const baseIndent = first[1]!.length;
      while (i < lines.length) {
        const item = LIST_ITEM.exec(lines[i]!);
        if (!item) break;
        const task = TASK_ITEM.exec(lines[i]!);
        items.push({
          text: task ? task[3]!.trimStart() : item[3]!,
          depth: Math.max(0, Math.floor((item[1]!.length - baseIndent) / 2)),
          checked: task ? task[2] !== ' ' : null,
          line: i,
        });
        i++;
      }
      blocks.push({ kind: 'list', ordered: /\d/.test(first[2]!), items });
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() !== '' &&
      !FENCE.test(lines[i]!) &&
      !HEADING.test(lines[i]!) &&
      !QUOTE.test(lines[i]!) &&
      !LIST_ITEM.test(lines[i]!)
    )
      paragraph.push(lines[i++]!);
    blocks.push({ kind: 'paragraph', lines: paragraph });
  }
  return blocks;
}

// Inline pieces, tried in this order at each position: code, link, bold, strike, italic, bare URL.
const INLINE =
  /(`[^`\n]+`)|(!?\[([^\]\n]*)\]\(\s*([^)\s]+)\s*\))|(\*\*[^*\n]+\*\*|__[^_\n]+__)|(~~[^~\n]+~~)|(\*[^*\s][^*\n]*\*|\b_[^_\s][^_\n]*_\b)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

/** Schemes a link may keep as a real link; anything else (javascript:, data:) is shown as its label only. */
const SAFE_URL = /^(https?:|mailto:)/i;
const MENTION = /^([a-z]+):(.+)$/;

/** The inline content of a line of markdown, as elements. */
export function renderInline(text: string, options: MarkdownOptions, keyPrefix = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  const pattern = new RegExp(INLINE.source, 'g');
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const key = `${keyPrefix}.${n++}`;
    const [whole, code, link, label, target, bold, strike, italic, url] = match;
    if (code) out.push(<code key={key}>{code.slice(1, -1)}</code>);
    else if (link) out.push(renderLink(link.startsWith('!'), label ?? '', target!, options, key));
    else if (bold) out.push(<strong key={key}>{renderInline(bold.slice(2, -2), options, key)}</strong>);
    else if (strike) out.push(<s key={key}>{renderInline(strike.slice(2, -2), options, key)}</s>);
    else if (italic) out.push(<em key={key}>{renderInline(italic.slice(1, -1), options, key)}</em>);
    else if (url)
      out.push(
        <a key={key} href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </a>,
      );
    else out.push(whole);
    last = match.index + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function renderLink(image: boolean, label: string, target: string, options: MarkdownOptions, key: string) {
  if (SAFE_URL.test(target))
    return (
      // Images are not loaded from elsewhere: the app talks to its own server only. They stay links.
      <a key={key} href={target} target="_blank" rel="noopener noreferrer">
        {image ? `image: ${label || target}` : label || target}
      </a>
    );
  const mention = MENTION.exec(target);
  if (mention && !image) return options.mention(mention[1]!, mention[2]!, label, key);
  return <Fragment key={key}>{label}</Fragment>;
}

/** Lines of one block joined with line breaks, as people type them in a comment box. */
function withBreaks(lines: string[], options: MarkdownOptions, key: string): ReactNode[] {
  return lines.flatMap((line, i) => [
    ...(i > 0 ? [<br key={`${key}.br${i}`} />] : []),
    ...renderInline(line, options, `${key}.${i}`),
  ]);
}

/** A whole body as blocks of elements. */
export function Markdown({ body, options }: { body: string; options: MarkdownOptions }) {
  return (
    <div className="pwa-markdown">
      {blocksOf(body).map((block, b) => {
        const key = `b${b}`;
        switch (block.kind) {
          case 'paragraph':
            return <p key={key}>{withBreaks(block.lines, options, key)}</p>;
          case 'heading':
            return (
              <p key={key} className={`pwa-heading pwa-heading-${Math.min(block.level, 3)}`}>
                {renderInline(block.text, options, key)}
              </p>
            );
          case 'code':
            return (
              <pre key={key}>
                <code>{block.text}</code>
              </pre>
            );
          case 'quote':
            return <blockquote key={key}>{withBreaks(block.lines, options, key)}</blockquote>;
          case 'list': {
            const List = block.ordered ? 'ol' : 'ul';
            const tasks = block.items.some((item) => item.checked !== null);
            return (
              <List key={key} className={tasks ? 'pwa-tasklist' : undefined}>
                {block.items.map((item) => (
                  <li key={item.line} style={item.depth ? { marginLeft: item.depth * 16 } : undefined}>
                    {item.checked === null ? (
                      renderInline(item.text, options, `${key}.${item.line}`)
                    ) : (
                      <label className="pwa-task">
                        <input
                          type="checkbox"
                          checked={item.checked}
                          disabled={!options.onToggle}
                          onChange={() => options.onToggle?.(item.line)}
                        />
                        <span>{renderInline(item.text, options, `${key}.${item.line}`)}</span>
                      </label>
                    )}
                  </li>
                ))}
              </List>
            );
          }
        }
      })}
    </div>
  );
}

/** A body on one line (inbox rows, compact activities): line breaks become spaces, blocks their text. */
export function InlineMarkdown({ body, options }: { body: string; options: MarkdownOptions }) {
  const line = body
    .split('\n')
    .filter((part) => part.trim() !== '' && !FENCE.test(part))
    .map((part) => part.replace(/^\s*(?:#{1,6}|>)\s+/, ''))
    .join(' ')
    // The inbox gets bodies already on one line: list items and checkboxes are found inside it too.
    .replace(
      /(^|\s)(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s*/g,
      (_all, space: string, mark: string) => `${space}${mark === ' ' ? '☐' : '☑'} `,
    );
  return <span className="pwa-inline-markdown">{renderInline(line, options)}</span>;
}
