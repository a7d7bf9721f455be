import type { MouseEvent, ReactNode } from 'react';

/** The player's buttons keep the focus where it was, so its keys go on working after a click. */
export const keepFocus = (event: MouseEvent) => event.preventDefault();

/** A button of the player's controls, named for assistive technology by `label` (its text is a symbol). */
export function PlayerButton(props: {
  label: string;
  title: string;
  onClick(): void;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={props.className}
      onMouseDown={keepFocus}
      onClick={props.onClick}
      title={props.title}
      aria-label={props.label}
      disabled={props.disabled}
    >
      {props.children}
    </button>
  );
}
