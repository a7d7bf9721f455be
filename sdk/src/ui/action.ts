import { useCallback, useMemo, useState, type FormEvent } from 'react';

/** A change the user asks for (save, create, delete), and how it went. */
export interface Action {
  /** True while the change is under way: disable what would start it again. */
  busy: boolean;
  /** Why the last run failed, for ErrorBox; null when it did not. */
  error: unknown;
  /** What the last successful run did ("Saved."), for Saved; null when it said nothing. */
  done: string | null;
  /** Run the change; resolves to whether it succeeded (a failure is kept in `error`, not thrown). */
  run(work: () => Promise<unknown>, done?: string): Promise<boolean>;
  /** A form's onSubmit: keeps the browser from reloading the page, then runs the change. */
  submit(work: () => Promise<unknown>, done?: string): (event: FormEvent) => void;
  /** Show a failure found without asking the server (a file the browser could not read). */
  fail(error: unknown): void;
  /** Forget the last outcome. */
  clear(): void;
}

/** Run changes the user asks for, keeping what the screen shows about them: busy, failed or done. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);

  const run = useCallback(async (work: () => Promise<unknown>, message?: string) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      await work();
      setDone(message ?? null);
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  return useMemo(
    () => ({
      busy,
      error,
      done,
      run,
      submit: (work: () => Promise<unknown>, message?: string) => (event: FormEvent) => {
        event.preventDefault();
        void run(work, message);
      },
      fail: (failure: unknown) => {
        setDone(null);
        setError(failure);
      },
      clear: () => {
        setError(null);
        setDone(null);
      },
    }),
    [busy, error, done, run],
  );
}
