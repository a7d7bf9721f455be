import { useState } from 'react';
import { callRoute, ErrorBox, saveBlob, useClient } from '@pipewright/sdk/ui';

/** Save the review report of a list of versions: a PDF with each version's comments and annotated frames. */
export function ReviewReportButton({ project, id, label }: { project: string; id: string; label: string }) {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const path = `/api/projects/${encodeURIComponent(project)}/lists/${id}/review-report`;
      saveBlob(await callRoute<Blob>(client, path, { parseAs: 'blob' }), `${label}.pdf`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" disabled={busy} onClick={() => void save()}>
        {busy ? 'Making the report…' : 'Report (PDF)'}
      </button>
      <ErrorBox error={error} prefix="The report could not be made:" />
    </>
  );
}
