import { useState, type FormEvent } from 'react';
import { ErrorBox } from '@pipewright/sdk/ui';
import type { Entity } from '../model';
import { Actions, Dialog, useRequest } from './Dialog';

/** Delete after asking; when the server says products would go too, ask again before forcing. */
export function DeleteDialog({
  entities,
  onDelete,
  onClose,
}: {
  entities: Entity[];
  /** Answers null when done, else why not; `needsForce` when only force would do it. */
  onDelete(force: boolean): Promise<{ error: string; needsForce: boolean } | null>;
  onClose(): void;
}) {
  const [forceReason, setForceReason] = useState<string | null>(null);
  const { error, busy, run } = useRequest();
  const what =
    entities.length === 1
      ? `${entities[0]!.kind} ${entities[0]!.path}`
      : `${entities.length} folders and tasks`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await onDelete(forceReason !== null);
      if (answer?.needsForce) {
        setForceReason(answer.error);
        return null;
      }
      return answer?.error ?? null;
    });
  };
  return (
    <Dialog label="Delete" onSubmit={submit} onClose={onClose}>
      {forceReason ? (
        <div className="error-box" role="alert">
          <strong>{forceReason}.</strong>
          <p>Delete the products and their versions too? This cannot be undone for the products.</p>
        </div>
      ) : (
        <p>
          Delete {what}
          {entities.some((e) => e.kind === 'folder') ? ' with everything inside' : ''}?
        </p>
      )}
      <ErrorBox error={error} />
      <Actions
        busy={busy}
        doing="Deleting…"
        done={forceReason ? 'Delete with its products' : 'Delete'}
        onClose={onClose}
      />
    </Dialog>
  );
}
