import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { matchingOptions, mentionOptions, typedMention, type MentionOption } from './mentions';
import type { Suggestions } from './api';

/**
 * A comment's text box that offers people and entities after an @: the chosen one is written into the text as a
 * markdown link ([Jane Doe](user:jane), [comp](task:<id>)), which is what makes the server notify them.
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

  const typed = typedMention(value, caret);
  const open = typed !== null && typed.start !== dismissedAt;
  const shown: MentionOption[] = open ? matchingOptions(options, typed.typed) : [];
  const current = Math.min(highlighted, Math.max(0, shown.length - 1));

  const follow = (next: string, at: number) => {
    onChange(next);
    setCaret(at);
    setHighlighted(0);
    const mention = typedMention(next, at);
    if (mention && !suggestions) onWantSuggestions();
  };

  const choose = (option: MentionOption) => {
    if (!typed) return;
    const before = value.slice(0, typed.start);
    const after = value.slice(caret);
    const inserted = `${option.link} `;
    const next = before + inserted + after;
    const at = before.length + inserted.length;
    onChange(next);
    setCaret(at);
    // Put the caret after the link once React has written the new value into the box.
    requestAnimationFrame(() => {
      box.current?.focus();
      box.current?.setSelectionRange(at, at);
    });
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
        value={value}
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
        <ul className="pwa-mention-list" id={listId} role="listbox" aria-label="Mention">
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
