import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { ErrorBox, useAction } from '@pipewright/sdk/ui';

// The layout of the tabs that list things by name (access groups, service users, teams): the list at the left with
// a form to create one more below it, and the editor of the one picked at the right.

/** A named list to pick from, with its create form, beside the editor of what is picked. */
export function PickAndEdit<T>({
  label,
  items,
  error,
  empty,
  nameOf,
  picked,
  onPick,
  itemContent,
  create,
  children,
}: {
  /** What the list holds ("Teams"), its accessible name. */
  label: string;
  /** Null until they are read. */
  items: T[] | null;
  error: string | null;
  /** The notice when there are none. */
  empty: ReactNode;
  nameOf(item: T): string;
  picked: string | null;
  onPick(name: string): void;
  /** What an item's button shows; its name when not given. */
  itemContent?(item: T): ReactNode;
  /** The form that creates one more (a CreateByName). */
  create: ReactNode;
  /** The editor of the picked one, or a hint to pick one. */
  children: ReactNode;
}) {
  return (
    <div className="us-split">
      <div className="us-main us-narrow">
        <ErrorBox error={error} />
        {items && items.length === 0 && <p className="notice">{empty}</p>}
        <ul className="us-list" aria-label={label}>
          {(items ?? []).map((item) => {
            const name = nameOf(item);
            return (
              <li key={name}>
                <button
                  type="button"
                  aria-current={name === picked}
                  className={name === picked ? 'pw-selected' : undefined}
                  onClick={() => onPick(name)}
                >
                  {itemContent ? itemContent(item) : name}
                </button>
              </li>
            );
          })}
        </ul>
        {create}
      </div>
      {children}
    </div>
  );
}

/** A one-field form that creates something by its name, emptied once it is created; the failure shows below. */
export function CreateByName({
  label,
  placeholder,
  submitLabel,
  rules,
  onCreate,
}: {
  /** The form's accessible name ("New team"); its input is called "<label> name". */
  label: string;
  placeholder: string;
  submitLabel: string;
  /** What the browser checks before sending (pattern and its title, minLength). */
  rules: Pick<InputHTMLAttributes<HTMLInputElement>, 'pattern' | 'title' | 'minLength'>;
  /** Creates it by its trimmed name. */
  onCreate(name: string): Promise<void>;
}) {
  const [name, setName] = useState('');
  const creation = useAction();
  const submit = creation.submit(async () => {
    await onCreate(name.trim());
    setName('');
  });
  return (
    <>
      <form className="pw-row" onSubmit={submit} aria-label={label}>
        <input
          aria-label={`${label} name`}
          placeholder={placeholder}
          value={name}
          {...rules}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" disabled={name.trim().length < (rules.minLength ?? 1)}>
          {submitLabel}
        </button>
      </form>
      <ErrorBox error={creation.error} />
    </>
  );
}
