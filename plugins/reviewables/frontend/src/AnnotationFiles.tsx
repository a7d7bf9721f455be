import { useRef, useState } from 'react';
import { ErrorBox, saveBlob, useClient } from '@pipewright/sdk/ui';
import { exportAnnotations, importOtio, type AnnotatedMedia } from './annotations';

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/**
 * The reviewable's annotations to and from the files other review tools read: OTIO (OpenRV, and tools that follow
 * the Open Review Initiative) and an OpenRV paint fragment.
 */
export function AnnotationFiles({ media }: { media: AnnotatedMedia }) {
  const client = useClient();
  const chooser = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const base = `annotations-${media.reviewableId.slice(0, 8)}`;

  const run = async (work: () => Promise<string | null>) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setDone(await work());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const download = (format: 'otio' | 'openrv', name: string) =>
    run(async () => {
      saveBlob(await exportAnnotations(client, media, format), name);
      return null;
    });
  const upload = (file: File) =>
    run(async () => {
      let document: unknown;
      try {
        document = JSON.parse(await file.text());
      } catch {
        throw new Error(`${file.name} is not an OTIO file (OTIO files are JSON)`);
      }
      const { created, updated, skipped } = await importOtio(client, media, document);
      const left = skipped.length
        ? `; left out ${plural(skipped.length, 'layer')} (${[...new Set(skipped)].join(', ')})`
        : '';
      return `Imported ${plural(created + updated, 'object')} from ${file.name} (${updated} replaced)${left}.`;
    });

  return (
    <span className="pw-inline" role="group" aria-label="Annotation files">
      <button type="button" disabled={busy} onClick={() => void download('otio', `${base}.otio`)}>
        Export OTIO
      </button>
      <button type="button" disabled={busy} onClick={() => void download('openrv', `${base}-paint.rv`)}>
        Export OpenRV paint
      </button>
      <button type="button" disabled={busy} onClick={() => chooser.current?.click()}>
        Import OTIO…
      </button>
      <input
        ref={chooser}
        type="file"
        accept=".otio,application/json"
        hidden
        aria-label="OTIO file to import"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void upload(file);
        }}
      />
      {done && (
        <span role="status" className="muted">
          {done}
        </span>
      )}
      <ErrorBox error={error} prefix="The annotation file:" />
    </span>
  );
}
