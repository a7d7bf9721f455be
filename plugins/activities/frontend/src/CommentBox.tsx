import { useRef, useState } from 'react';
import { ErrorBox, useClient } from '@pipewright/sdk/ui';
import type { Suggestions } from './activity-routes';
import { PendingFiles, useUploads } from './Files';
import { MentionInput } from './MentionInput';

/** Writing a comment: text with @-mentions, files uploaded as they are chosen, sent with the button or Ctrl+Enter. */
export function CommentBox({
  project,
  suggestions,
  onWantSuggestions,
  onSend,
}: {
  project: string;
  suggestions: Suggestions | null;
  onWantSuggestions(): void;
  /** Post the comment; resolves when the server has it. */
  onSend(body: string, files: string[]): Promise<unknown>;
}) {
  const client = useClient();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const uploads = useUploads(client, project);
  const picker = useRef<HTMLInputElement>(null);

  const empty = text.trim() === '' && uploads.ready.length === 0;
  const blocked = sending || uploads.busy || empty;

  const send = async () => {
    if (blocked) return;
    setSending(true);
    setError(null);
    try {
      await onSend(text.trim(), uploads.ready);
      setText('');
      uploads.clear();
    } catch (failure) {
      setError(failure);
    } finally {
      setSending(false);
    }
  };

  return (
    <form
      className="pwa-comment-box"
      aria-label="New comment"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <MentionInput
        label="Comment"
        placeholder="Write a comment… Type @ to mention someone or a task."
        value={text}
        onChange={setText}
        suggestions={suggestions}
        onWantSuggestions={onWantSuggestions}
        onSubmit={() => void send()}
        disabled={sending}
      />
      <PendingFiles uploads={uploads} />
      <ErrorBox error={error} prefix="The comment was not sent:" />
      <div className="pw-row">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          aria-label="Files to attach"
          onChange={(event) => {
            if (event.target.files?.length) uploads.add(event.target.files);
            // The same file may be chosen again after being removed.
            event.target.value = '';
          }}
        />
        <button type="button" onClick={() => picker.current?.click()} disabled={sending}>
          Attach files
        </button>
        <span className="pw-grow muted pwa-hint">
          {uploads.busy
            ? 'Uploading…'
            : uploads.failed
              ? 'Some files were not uploaded.'
              : 'Ctrl+Enter sends'}
        </span>
        <button type="submit" className="primary" disabled={blocked}>
          {sending ? 'Sending…' : 'Comment'}
        </button>
      </div>
    </form>
  );
}
