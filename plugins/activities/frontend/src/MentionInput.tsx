import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import {
  draftOf,
  markdownOf,
  matchingOptions,
  mentionOptions,
  tokensIn,
  typedMention,
  withMention,
  type Draft,
  type MentionOption,
} from './mentions';
import type { Suggestions } from './activity-routes';

/**
 * A comment's text box that offers people and entities after an @. The box shows a chosen one by name ("@Jane Doe");
 * `value` and `onChange` carry the body's markdown, where it is a link ([Jane Doe](user:jane), [comp](task:<id>)),
 * which is what makes the server notify them.
 */
export function MentionInput({
  value,
  onChange,
  label,
  placeholder,
  suggestions,
  onWantSuggestions,
  onSubmit,
  onCancel,
  autoFocus,
  disabled,
}: {
  /** The body as markdown. */
  value: string;
  onChange(value: string): void;
  /** The box's accessible name ("Comment"). */
  label: string;
  placeholder?: string;
  /** What to offer; null while not read yet (or where the entity has none). */
  suggestions: Suggestions | null;
  /** Called when an @ is typed and there is nothing to offer yet: read the suggestions now. */
  onWantSuggestions(): void;
  /** Ctrl+Enter (or Cmd+Enter). */
  onSubmit(): void;
  /** Escape with no mention list open. */
  onCancel?(): void;
  autoFocus?: boolean;
  disabled?: boolean;
}) {
  const box = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [highlighted, setHighlighted] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const options = useMemo(() => (suggestions ? mentionOptions(suggestions) : []), [suggestions]);
  // The text as shown, and the markdown it was last known to stand for: a value from outside (cleared after
  // sending, a comment to edit) starts a new draft.
  const [draft, setDraft] = useState<Draft & { source: string }>(() => ({
    ...draftOf(value),
    source: value,
  }));
  if (draft.source !== value) setDraft({ ...draftOf(value), source: value });
  const text = draft.text;

  const typed = typedMention(text, caret);
  const open = typed !== null && typed.start !== dismissedAt;
  const shown: MentionOption[] = open ? matchingOptions(options, typed.typed) : [];
  const current = Math.min(highlighted, Math.max(0, shown.length - 1));
  const list = useRef<HTMLUListElement>(null);
  const placement = useListPlacement(box, list, open, shown.length);

  const write = (next: Draft, at: number) => {
    const source = markdownOf(next);
    setDraft({ ...next, source });
    onChange(source);
    setCaret(at);
  };

  const follow = (next: string, at: number) => {
    write({ text: next, mentions: draft.mentions }, at);
    setHighlighted(0);
    const mention = typedMention(next, at);
    if (mention && !suggestions) onWantSuggestions();
  };

  // The caret goes where a change put it once React has written the new text into the box, in the same task: a
  // later frame would be too late for a fast typist (the next keys would land at the end, the rest at the caret).
  const caretWanted = useRef<number | null>(null);
  const placeCaret = (at: number) => (caretWanted.current = at);
  useLayoutEffect(() => {
    const at = caretWanted.current;
    if (at === null) return;
    caretWanted.current = null;
    box.current?.focus();
    box.current?.setSelectionRange(at, at);
  });

  const choose = (option: MentionOption) => {
    if (!typed) return;
    const [mentions, token] = withMention(draft.mentions, { shown: option.shown, link: option.link });
    const before = text.slice(0, typed.start);
    const inserted = `${token} `;
    const at = before.length + inserted.length;
    write({ text: before + inserted + text.slice(caret), mentions }, at);
    placeCaret(at);
  };

  /** Backspace or Delete next to a mention removes all of it: half a name would be no mention and read oddly. */
  const eraseToken = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const target = event.currentTarget;
    if (target.selectionStart !== target.selectionEnd) return false;
    const at = target.selectionStart;
    const token = tokensIn(draft).find((t) =>
      event.key === 'Backspace' ? t.start < at && at <= t.end : t.start <= at && at < t.end,
    );
    if (!token) return false;
    event.preventDefault();
    write(
      { text: text.slice(0, token.start) + text.slice(token.end), mentions: draft.mentions },
      token.start,
    );
    placeCaret(token.start);
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open && shown.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setHighlighted((current + step + shown.length) % shown.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(shown[current]!);
        return;
      }
    }
    if ((event.key === 'Backspace' || event.key === 'Delete') && eraseToken(event)) return;
    if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setDismissedAt(typed.start);
      } else onCancel?.();
      return;
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onSubmit();
    }
  };

  return (
    <div className="pwa-mention-input">
      <textarea
        ref={box}
        aria-label={label}
        placeholder={placeholder}
        value={text}
        rows={3}
        autoFocus={autoFocus}
        disabled={disabled}
        role="combobox"
        aria-expanded={open && shown.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && shown.length > 0 ? `${listId}-${current}` : undefined}
        onChange={(event) => follow(event.target.value, event.target.selectionStart)}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => typed && setDismissedAt(typed.start)}
        onFocus={() => setDismissedAt(null)}
      />
      {open && (
        <ul
          ref={list}
          className={placement.above ? 'pwa-mention-list pwa-above' : 'pwa-mention-list'}
          style={{ maxHeight: placement.maxHeight }}
          id={listId}
          role="listbox"
          aria-label="Mention"
        >
          {!suggestions ? (
            <li className="muted pwa-mention-note">Finding people and tasks…</li>
          ) : shown.length === 0 ? (
            <li className="muted pwa-mention-note">Nobody and nothing here matches “{typed.typed}”.</li>
          ) : (
            shown.map((option, index) => (
              <li
                key={option.key}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === current}
                className={index === current ? 'pwa-mention-option pwa-current' : 'pwa-mention-option'}
                // mousedown, not click: the box must not lose focus (and close the list) first.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(option);
                }}
                onMouseEnter={() => setHighlighted(index)}
              >
                <span>{option.title}</span>
                <small className="muted">{option.detail}</small>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}

/** Room kept between the list and the window's edge. */
const MARGIN = 8;
/** The list's height when there is room for it. */
const TALLEST = 260;

/**
 * Where the mention list fits: below the box when there is room, else above it (a box at the bottom of the window
 * would open it off screen), and never taller than the room on the chosen side.
 */
function useListPlacement(
  box: RefObject<HTMLTextAreaElement | null>,
  list: RefObject<HTMLUListElement | null>,
  open: boolean,
  entries: number,
): { above: boolean; maxHeight: number } {
  const [placement, setPlacement] = useState({ above: false, maxHeight: TALLEST });
  useLayoutEffect(() => {
    if (!open || !box.current) return;
    const place = () => {
      const rect = box.current!.getBoundingClientRect();
      const below = window.innerHeight - rect.bottom - MARGIN;
      const aboveRoom = rect.top - MARGIN;
      const wanted = Math.min(TALLEST, list.current?.scrollHeight ?? TALLEST);
      const above = below < wanted && aboveRoom > below;
      const maxHeight = Math.max(60, Math.min(TALLEST, above ? aboveRoom : below));
      setPlacement((current) =>
        current.above === above && current.maxHeight === maxHeight ? current : { above, maxHeight },
      );
    };
    place();
    // Scrolling the panel or resizing the window moves the box under a list that stays open.
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [open, entries, box, list]);
  return placement;
}
