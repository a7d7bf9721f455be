import type { ReactNode } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { UserRecord } from './routes';

/** A titled part of a user's or an access group's form, with a line of help under the title when it needs one. */
export function Section({
  title,
  help,
  disabled,
  children,
}: {
  title: string;
  help?: string;
  /** Greys out every control inside: while a change is saved, or when the caller may not make it. */
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <fieldset className="pw-group us-section" disabled={disabled}>
      <legend>{title}</legend>
      {help && <p className="muted pw-small">{help}</p>}
      {children}
    </fieldset>
  );
}

/** What each section of the user editor works on. */
export interface UserSectionProps {
  client: PipewrightClient;
  user: UserRecord;
  /** The caller may not change this user (only administrators change administrators). */
  locked: boolean;
  /** Something was saved: the user list reads the users again. */
  onChanged(): void;
}
