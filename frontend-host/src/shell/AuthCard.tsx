import type { FormEvent, ReactNode } from 'react';
import { ErrorBox, type Action } from '@pipewright/sdk/ui';

// The frame of the shell's forms before anyone is logged in (login, onboarding, password reset): a card in the
// middle of the screen, and the end of the form that says how sending it went.

/** A form on a card in the middle of the screen, under its title. */
export function AuthCard({
  label,
  title,
  onSubmit,
  children,
}: {
  /** The form's accessible name ("Log in"). */
  label: string;
  title: string;
  onSubmit(event: FormEvent): void;
  children: ReactNode;
}) {
  return (
    <div className="centered">
      <form className="card auth-form" onSubmit={onSubmit} aria-label={label}>
        <h1>{title}</h1>
        {children}
      </form>
    </div>
  );
}

/** Why sending failed or what it did, and the submit button, which says so while it is under way. */
export function SubmitOutcome({
  action,
  label,
  busyLabel,
}: {
  action: Action;
  label: string;
  busyLabel: string;
}) {
  return (
    <>
      <ErrorBox error={action.error} />
      {action.done && (
        <p className="notice" role="status">
          {action.done}
        </p>
      )}
      <button type="submit" className="primary" disabled={action.busy}>
        {action.busy ? busyLabel : label}
      </button>
    </>
  );
}
