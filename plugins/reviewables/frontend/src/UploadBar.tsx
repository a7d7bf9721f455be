import { useEffect, useId, useRef, useState } from 'react';
import { ErrorBox, statusOf, useClient } from '@pipewright/sdk/ui';
import {
  isReviewableType,
  mediaTypeOf,
  UploadAborted,
  uploadReviewable,
  type Reviewable,
  type RunningUpload,
  type UploadProgress,
} from './api';

// Adding a reviewable to the version: a file chosen or dropped (anywhere on the review area), an optional label,
// then the upload with its progress. Nothing is converted on the server, so what the file is decides whether it
// plays here; the new card says so as soon as it arrives.

const megabytes = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** A refusal in the words someone uploading needs: what happened, and what to do next. */
function refusalPrefix(failure: unknown): string {
  switch (statusOf(failure)) {
    case 413:
      return 'The file is too large for this server.';
    case 415:
      return 'This kind of file cannot be reviewed.';
    case 400:
      return 'The server could not read the file as a video or an image.';
    case 403:
      return 'You may not add reviewables to this version.';
    case 422:
      return 'The upload was refused.';
    default:
      return 'The upload failed.';
  }
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'sending'; upload: RunningUpload; progress: UploadProgress }
  | { kind: 'processing' };

export function UploadBar({
  project,
  versionId,
  versionName,
  dropped,
  onUploaded,
}: {
  project: string;
  versionId: string;
  versionName: string;
  /** A file dropped on the review area (a new object each drop). */
  dropped: { file: File } | null;
  onUploaded(reviewable: Reviewable): void;
}) {
  const client = useClient();
  const [file, setFile] = useState<File | null>(null);
  const [label, setLabel] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<unknown>(null);
  const picker = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const busy = phase.kind !== 'idle';

  const choose = (chosen: File | null) => {
    if (busy || !chosen) return;
    setError(null);
    // Checked here too, so nobody waits for gigabytes to go up only to hear that the type is wrong.
    const type = mediaTypeOf(chosen);
    if (!isReviewableType(type)) {
      setFile(null);
      setError({
        status: 415,
        detail: `${chosen.name} is ${type === 'application/octet-stream' ? 'of an unknown type' : type}: reviewables are videos or images. Choose a video (MP4, MOV, MXF, ...) or an image (PNG, JPEG, EXR, ...).`,
      });
      return;
    }
    setFile(chosen);
  };

  // Only a new drop counts, taken as the bar stands then.
  const chooseNow = useRef(choose);
  chooseNow.current = choose;
  useEffect(() => {
    if (dropped) chooseNow.current(dropped.file);
  }, [dropped]);

  // Leaving the version (or the screen) stops an upload that is still on its way (the screen keys this by version).
  const running = useRef<RunningUpload | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const start = () => {
    if (!file) return;
    setError(null);
    const upload = uploadReviewable(client, project, versionId, file, label.trim(), (progress) =>
      setPhase((current) =>
        current.kind === 'sending'
          ? progress.sent >= progress.total
            ? { kind: 'processing' }
            : { ...current, progress }
          : current,
      ),
    );
    running.current = upload;
    setPhase({ kind: 'sending', upload, progress: { sent: 0, total: file.size } });
    upload.done.finally(() => (running.current = null)).catch(() => undefined);
    upload.done.then(
      (reviewable) => {
        setPhase({ kind: 'idle' });
        setFile(null);
        setLabel('');
        if (picker.current) picker.current.value = '';
        onUploaded(reviewable);
      },
      (failure) => {
        setPhase({ kind: 'idle' });
        if (!(failure instanceof UploadAborted)) setError(failure);
      },
    );
  };

  return (
    <section className="pwr-upload" aria-label={`Upload to ${versionName}`}>
      <div className="pwr-upload-row">
        <strong className="pwr-upload-title">Add a reviewable</strong>
        {/* The input stays in the page (hidden) so its file is kept; the button opens it. */}
        <input
          ref={picker}
          className="pwr-file-input"
          type="file"
          accept="video/*,image/*,.mxf,.exr,.dpx"
          aria-label="Video or image file"
          disabled={busy}
          onChange={(event) => choose(event.target.files?.[0] ?? null)}
        />
        <button type="button" onClick={() => picker.current?.click()} disabled={busy}>
          {file ? 'Choose another file…' : 'Choose a file…'}
        </button>
        {file ? (
          <span className="pwr-upload-file" title={file.name}>
            {file.name} <span className="muted">({megabytes(file.size)})</span>
          </span>
        ) : (
          <span className="muted">or drop a video or an image anywhere on the review area.</span>
        )}
        {file && (
          <>
            <label htmlFor={labelId} className="muted pw-small">
              Label
            </label>
            <input
              id={labelId}
              className="pwr-upload-label"
              value={label}
              maxLength={255}
              placeholder={file.name}
              disabled={busy}
              onChange={(event) => setLabel(event.target.value)}
              onKeyDown={(event) => event.key === 'Enter' && !busy && start()}
            />
            {!busy && (
              <>
                <button type="button" className="primary" onClick={start}>
                  Upload to {versionName}
                </button>
                <button
                  type="button"
                  onClick={() => {
                    setFile(null);
                    setError(null);
                    if (picker.current) picker.current.value = '';
                  }}
                >
                  Cancel
                </button>
              </>
            )}
          </>
        )}
      </div>
      {phase.kind === 'sending' && (
        <div className="pwr-upload-row" role="status" aria-label="Upload progress">
          <span className="pw-progress pwr-upload-progress">
            <span style={{ width: `${(100 * phase.progress.sent) / Math.max(1, phase.progress.total)}%` }} />
          </span>
          <span>
            Uploading: {megabytes(phase.progress.sent)} of {megabytes(phase.progress.total)} (
            {Math.floor((100 * phase.progress.sent) / Math.max(1, phase.progress.total))} %)
          </span>
          <button type="button" onClick={() => phase.upload.abort()}>
            Cancel upload
          </button>
        </div>
      )}
      {phase.kind === 'processing' && (
        <p className="pwr-upload-row muted" role="status" aria-label="Upload progress">
          Uploaded; the server is reading its media info…
        </p>
      )}
      <ErrorBox error={error} prefix={error ? refusalPrefix(error) : undefined} />
    </section>
  );
}
