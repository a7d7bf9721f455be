import type { ComponentProps, KeyboardEvent, ReactNode } from 'react';

/** A table in the theme's look: its column headings, and the rows given as children. */
export function Table({
  label,
  columns,
  className,
  children,
}: {
  /** What the table lists, for screen readers and tests ("Users"). */
  label: string;
  /** The column headings, left to right; an empty one for a column of buttons. */
  columns: ReactNode[];
  /** More classes, for what is the screen's own. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <table className={className ? `pw-table ${className}` : 'pw-table'} aria-label={label}>
      <thead>
        <tr>
          {columns.map((column, i) => (
            <th scope="col" key={i}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A table row that is chosen by a click or from the keyboard (Enter, Space), marked while it is the chosen one. */
export function ChoosableRow({
  selected,
  onChoose,
  className,
  children,
  ...rest
}: Omit<ComponentProps<'tr'>, 'onClick' | 'onKeyDown'> & {
  selected: boolean;
  onChoose(): void;
}) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onChoose();
  };
  const classes = [className, selected ? 'pw-selected' : ''].filter(Boolean).join(' ');
  return (
    <tr
      {...rest}
      className={classes || undefined}
      tabIndex={0}
      aria-selected={selected}
      onClick={onChoose}
      onKeyDown={onKeyDown}
    >
      {children}
    </tr>
  );
}
