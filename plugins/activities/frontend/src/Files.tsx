import { useEffect, useRef, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf, useClient } from '@pipewright/sdk/ui';
import type { AttachedFile } from './activity';
import { readFile, uploadFile } from './project-files';
import { sizeText } from './format';

// Files of comments: those attached to an activity (a preview for images, a download for anything), and those
// being attached to a new comment (uploaded as soon as they are chosen, so sending waits for nothing).

// Image previews are read once per file id and kept as object URLs: the bytes never change under an id.
const previews = new Map<string, Promise<string | null>>();

function preview(client: PipewrightClient, project: string, id: string): Promise<string | null> {
  let found = previews.get(id);
  if (!found) {
    found = readFile(client, project, id).then(
      (blob) => URL.createObjectURL(blob),
      () => null,
    );
    previews.set(id, found);
  }
  return found;
}

/** Save a file as the browser saves downloads; its bytes come through the client (with the session). */
async function download(client: PipewrightClient, project: string, file: AttachedFile) {
  const url = URL.createObjectURL(await readFile(client, project, file.id));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name ?? file.id;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The files attached to an activity. */
export function AttachedFiles({ project, files }: { project: string; files: AttachedFile[] }) {
  const client = useClient();
  const [error, setError] = useState<string | null>(null);
  if (files.length === 0) return null;
  return (
    <div className="pwa-files">
      <ul aria-label="Attached files">
        {files.map((file) => (
          <li key={file.id} className="pwa-file">
            {file.mime?.startsWith('image/') && <ImagePreview project={project} file={file} />}
            <button
              type="button"
              className="pw-link"
              title={`Download ${file.name ?? 'the file'}`}
              onClick={() =>
                download(client, project, file).catch((failure) =>
                  setError(`${file.name ?? 'The file'} could not be downloaded: ${messageOf(failure)}`),
                )
              }
            >
              {file.name ?? 'file'}
            </button>
            <span className="muted"> {sizeText(file.size)}</span>
          </li>
        ))}
      </ul>
      {error && <p className="pwa-error">{error}</p>}
    </div>
  );
}

function ImagePreview({ project, file }: { project: string; file: AttachedFile }) {
  const client = useClient();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void preview(client, project, file.id).then((url) => current && setSrc(url));
    return () => {
      current = false;
    };
  }, [client, project, file.id]);
  return src ? <img className="pwa-preview" src={src} alt={file.name ?? ''} /> : null;
}

/** A file chosen for a new comment, and how its upload stands. */
export interface PendingFile {
  key: string;
  file: File;
  state: 'uploading' | 'ready' | 'failed';
  id?: string;
  error?: string;
}

/** The files of a comment being written: upload on choosing, retry and remove. */
export function useUploads(client: PipewrightClient, project: string) {
  const [files, setFiles] = useState<PendingFile[]>([]);
  const counter = useRef(0);

  const update = (key: string, change: Partial<PendingFile>) =>
    setFiles((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const start = (key: string, file: File) => {
    update(key, { state: 'uploading', error: undefined });
    uploadFile(client, project, file).then(
      (id) => update(key, { state: 'ready', id }),
      (failure) => update(key, { state: 'failed', error: messageOf(failure) }),
    );
  };

  return {
    files,
    add(chosen: FileList | File[]) {
      const added = [...chosen].map((file) => ({
        key: `f${++counter.current}`,
        file,
        state: 'uploading' as const,
      }));
      setFiles((list) => [...list, ...added]);
      for (const item of added) start(item.key, item.file);
    },
    retry: (item: PendingFile) => start(item.key, item.file),
    remove: (key: string) => setFiles((list) => list.filter((item) => item.key !== key)),
    clear: () => setFiles([]),
    /** Ids of the uploaded files. */
    ready: files.flatMap((item) => (item.state === 'ready' && item.id ? [item.id] : [])),
    busy: files.some((item) => item.state === 'uploading'),
    failed: files.some((item) => item.state === 'failed'),
  };
}

export type Uploads = ReturnType<typeof useUploads>;

/** The chosen files of a comment being written, with their upload state. */
export function PendingFiles({ uploads }: { uploads: Uploads }) {
  if (uploads.files.length === 0) return null;
  return (
    <ul className="pwa-pending-files" aria-label="Files to attach">
      {uploads.files.map((item) => (
        <li key={item.key} className={`pwa-file pwa-file-${item.state}`}>
          <span>{item.file.name}</span>
          <span className="muted">
            {' '}
            {item.state === 'uploading'
              ? `uploading ${sizeText(item.file.size)}…`
              : item.state === 'ready'
                ? sizeText(item.file.size)
                : ''}
          </span>
          {item.state === 'failed' && (
            <>
              <span className="pwa-error"> not uploaded: {item.error}</span>{' '}
              <button type="button" className="pw-link" onClick={() => uploads.retry(item)}>
                Try again
              </button>
            </>
          )}{' '}
          <button
            type="button"
            className="pw-link"
            aria-label={`Remove ${item.file.name}`}
            onClick={() => uploads.remove(item.key)}
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}
