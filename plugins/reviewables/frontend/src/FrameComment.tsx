import { useState } from 'react';
import { ErrorBox, useAction, useClient } from '@pipewright/sdk/ui';
import type { AnnotatedMedia } from './annotations';
import { commentOnFrame, type FrameDrawing } from './frame-comment';

/**
 * A comment on the frame on screen, or on a range of frames: "Mark in" keeps the frame on screen as one end, and the
 * player then goes to the other. The frame's drawing, when it has one, goes with the comment.
 */
export function FrameComment({
  media,
  frame,
  mediaFrame,
  drawing,
}: {
  media: AnnotatedMedia;
  /** The frame on screen, in the shot's numbering, and its index in the media. */
  frame: number;
  mediaFrame: number;
  /** The frame's drawing as pictures, or null when nothing is drawn on it. */
  drawing(): Promise<FrameDrawing | null>;
}) {
  const client = useClient();
  const [body, setBody] = useState('');
  const [markIn, setMarkIn] = useState<number | null>(null);
  const posting = useAction();
  const first = Math.min(markIn ?? frame, frame);
  const last = Math.max(markIn ?? frame, frame);
  const what = first === last ? `frame ${first}` : `frames ${first}–${last}`;

  const post = posting.submit(async () => {
    await commentOnFrame(
      client,
      media,
      { body: body.trim(), frame, mediaFrame, first, last },
      await drawing(),
    );
    setBody('');
    setMarkIn(null);
  });

  return (
    <form className="pwr-frame-comment" aria-label="Comment on this frame" onSubmit={post}>
      <input
        aria-label={`Comment on ${what}`}
        placeholder={`Comment on ${what}`}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={(event) => event.stopPropagation()}
      />
      {markIn === null ? (
        <button type="button" onClick={() => setMarkIn(frame)} title="Start a range of frames here">
          Mark in
        </button>
      ) : (
        <button type="button" onClick={() => setMarkIn(null)} title={`From frame ${markIn}`}>
          Clear range
        </button>
      )}
      <button type="submit" disabled={posting.busy || !body.trim()}>
        Post
      </button>
      <ErrorBox error={posting.error} prefix="Not posted:" />
    </form>
  );
}
