import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useClient } from '@pipewright/sdk/ui';
import { streamUrl, type Reviewable } from './api';
import type { AnnotatedMedia } from './annotations';
import { useAnnotator } from './Annotator';
import type { CompareSetup } from './Compare';
import { describeMedia, isVideo, titleOf } from './describe';
import type { FrameRange } from './frames';
import { usePicture } from './pictures';
import { useSpaceHold } from './player-keys';
import { useView } from './use-view';
import { ViewControls } from './ViewControls';
import { ViewFrame } from './ViewFrame';
import { VideoPlayer } from './VideoPlayer';

// The selected reviewable, shown the best way the browser can: a video plays (with review controls), an image
// shows as it is, and a file the browser cannot play shows a still frame the server made, with what to do about it.

interface StageProps {
  token: string;
  project: string;
  reviewable: Reviewable;
  versionId: string;
  /** Where a video's frames sit in the shot's numbering. */
  range: FrameRange;
  /** Side B and how to compare, when a comparison is open (videos only). */
  compare?: CompareSetup | null;
}

export function Stage(props: StageProps) {
  const client = useClient();
  const { reviewable } = props;
  // A video the browser fails on is shown as a still instead, with the browser's reason.
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => setFailure(null), [reviewable.fileId]);
  const onFailed = useCallback((message: string) => setFailure(message), []);
  const { project, versionId } = props;
  const annotate = useMemo(
    () => ({ project, versionId, reviewableId: reviewable.activityId }),
    [project, versionId, reviewable.activityId],
  );

  if (reviewable.availability === 'conversionRequired')
    return (
      <StillWithNote {...props}>
        <strong>This file needs converting before it can play here.</strong> {describeMedia(reviewable)}{' '}
        Browsers cannot play it as it is: convert it to H.264 in an MP4 (8-bit 4:2:0) and upload the result to
        this version. The picture is a still frame made by the server.
      </StillWithNote>
    );
  if (failure)
    return (
      <StillWithNote {...props}>
        <strong>It cannot play in this browser.</strong> {failure}
      </StillWithNote>
    );
  return (
    <div className="pwr-stage-content">
      {isVideo(reviewable) ? (
        <VideoPlayer
          src={streamUrl(client, props.token, props.project, reviewable.fileId)}
          info={reviewable.mediaInfo}
          title={titleOf(reviewable)}
          range={props.range}
          annotate={annotate}
          compare={props.compare ?? null}
          onFailed={onFailed}
        />
      ) : (
        <ImageView {...props} annotate={annotate} onFailed={onFailed} />
      )}
      {reviewable.availability === 'conversionRecommended' && (
        <p className="notice pwr-note" role="note">
          This file may not play in every browser ({describeMedia(reviewable)}). A conversion to 8-bit 4:2:0
          H.264 with an even width and height plays everywhere.
        </p>
      )}
      {reviewable.availability === 'unknown' && (
        <p className="notice pwr-note" role="note">
          The server could not describe this file (its media tools were unavailable when it was uploaded), so
          it is shown as it is: if nothing appears, this browser cannot show it.
        </p>
      )}
    </div>
  );
}

function ImageView({
  project,
  reviewable,
  range,
  annotate,
  onFailed,
}: StageProps & { annotate: AnnotatedMedia; onFailed(message: string): void }) {
  const client = useClient();
  const image = usePicture(client, project, reviewable.fileId, { kind: 'payload' });
  useEffect(() => {
    if (image.error) onFailed(`The image could not be read: ${image.error}`);
  }, [image.error, onFailed]);
  if (!image.src) return <div className="pwr-picture-frame muted">Loading the image…</div>;
  return (
    <AnnotatedImage
      src={image.src}
      alt={titleOf(reviewable)}
      annotate={annotate}
      frame={range.frameStart}
      onFailed={onFailed}
    />
  );
}

/** An image with its drawings: a still is one frame, the shot's first. */
function AnnotatedImage(props: {
  src: string;
  alt: string;
  annotate: AnnotatedMedia;
  frame: number;
  onFailed(message: string): void;
}) {
  const picture = useRef<HTMLImageElement>(null);
  const annotator = useAnnotator(props.annotate, picture, props.frame, 0);
  const view = useView(picture, props.src);
  return (
    <div className="pwr-image">
      <div className="pwr-picture-frame">
        <ViewFrame
          view={view}
          space={useSpaceHold()}
          picture={
            <img
              ref={picture}
              className="pwr-picture"
              src={props.src}
              alt={props.alt}
              // A drag pans it rather than carrying the image away.
              draggable={false}
              style={{ transform: view.transform }}
              onError={() => props.onFailed('This browser cannot show this image.')}
            />
          }
          drawings={annotator.overlay}
        />
      </div>
      <div className="pwr-image-controls">
        <ViewControls control={view} />
      </div>
      {annotator.toolbar}
    </div>
  );
}

/** A still frame from the server and a note under it; the original can still be downloaded. */
function StillWithNote({ token, project, reviewable, children }: StageProps & { children: ReactNode }) {
  const client = useClient();
  const still = usePicture(client, project, reviewable.fileId, { kind: 'still', seconds: 0 });
  return (
    <div className="pwr-stage-content">
      <div className="pwr-picture-frame">
        {still.src ? (
          <img className="pwr-picture" src={still.src} alt={`Still frame of ${titleOf(reviewable)}`} />
        ) : (
          <span className="muted">
            {still.error ? `No still frame either: ${still.error}` : 'Loading a still frame…'}
          </span>
        )}
      </div>
      <p className="notice pwr-note pwr-conversion" role="note">
        {children}{' '}
        <a href={streamUrl(client, token, project, reviewable.fileId)} download={reviewable.filename}>
          Download the original
        </a>
      </p>
    </div>
  );
}
