import { useRef, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { ErrorBox, saveBlob, useClient } from '@pipewright/sdk/ui';
import {
  exportAnnotations,
  importOpenRv,
  importOtio,
  type AnnotatedMedia,
  type ImportAnswer,
} from './annotations';

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

interface ImportFormat {
  /** What the file chooser offers. */
  accept: string;
  /** What the parts the answer's skipped names are called. */
  part: string;
  send(client: PipewrightClient, media: AnnotatedMedia, file: File): Promise<ImportAnswer>;
}

/** The files the reviewable's annotations are imported from, by the name the button shows. */
const IMPORTS: Record<string, ImportFormat> = {
  OTIO: {
    accept: '.otio,application/json',
    part: 'layer',
    async send(client, media, file) {
      let document: unknown;
      try {
        document = JSON.parse(await file.text());
      } catch {
        throw new Error(`${file.name} is not an OTIO file (OTIO files are JSON)`);
      }
      return importOtio(client, media, document);
    },
  },
  OpenRV: { accept: '.rv,.gto,text/plain', part: 'part', send: importOpenRv },
};

/** A button that asks for a file of one format; the file goes to onFile. */
function ImportButton(props: { format: string; disabled: boolean; onFile(file: File): void }) {
  const chooser = useRef<HTMLInputElement>(null);
  const { format, disabled, onFile } = props;
  return (
    <>
      <button type="button" disabled={disabled} onClick={() => chooser.current?.click()}>
        Import {format}…
      </button>
      <input
        ref={chooser}
        type="file"
        accept={IMPORTS[format]!.accept}
        hidden
        aria-label={`${format} file to import`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}

/**
 * The reviewable's annotations to and from the files other review tools read: OTIO (OpenRV, and tools that follow
 * the Open Review Initiative) and an OpenRV paint fragment (or a whole RV session, on the way in).
 */
export function AnnotationFiles({ media }: { media: AnnotatedMedia }) {
  const client = useClient();
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
  const upload = (format: string, file: File) =>
    run(async () => {
      const { send, part } = IMPORTS[format]!;
      const { created, updated, unchanged, skipped } = await send(client, media, file);
      const kept = unchanged ? `, ${unchanged} kept as they were` : '';
      const left = skipped.length
        ? `; left out ${plural(skipped.length, part)} (${[...new Set(skipped)].join(', ')})`
        : '';
      return `Imported ${plural(created + updated, 'object')} from ${file.name} (${updated} replaced${kept})${left}.`;
    });

  return (
    <span className="pw-inline" role="group" aria-label="Annotation files">
      <button type="button" disabled={busy} onClick={() => void download('otio', `${base}.otio`)}>
        Export OTIO
      </button>
      <button type="button" disabled={busy} onClick={() => void download('openrv', `${base}-paint.rv`)}>
        Export OpenRV paint
      </button>
      {Object.keys(IMPORTS).map((format) => (
        <ImportButton
          key={format}
          format={format}
          disabled={busy}
          onFile={(file) => void upload(format, file)}
        />
      ))}
      {done && (
        <span role="status" className="muted">
          {done}
        </span>
      )}
      <ErrorBox error={error} prefix="The annotation file:" />
    </span>
  );
}
