import type { ScreenProps } from '@pipewright/sdk/screen';
import { exposedScreen } from '@pipewright/sdk/ui';
import type { Reviewable } from './api';
import { UploadBar } from './UploadBar';
import './review.css';

/** What another screen hands the upload bar through ScreenProps.Extension (the overview's New version). */
export interface UploadReviewableProps {
  versionId: string;
  /** v001, as the bar's button says it. */
  versionName: string;
  onUploaded?(reviewable: Reviewable): void;
}

/**
 * The review screen's upload bar for other addons' screens: the same upload, checks, progress and refusals in
 * words, so a version made elsewhere gets its reviewables the way the review screen adds them.
 */
export default exposedScreen(function UploadReviewable({
  project,
  versionId,
  versionName,
  onUploaded,
}: ScreenProps & UploadReviewableProps) {
  if (!project) return <p className="muted">Choose a project first.</p>;
  return (
    <UploadBar
      project={project}
      versionId={versionId}
      versionName={versionName}
      dropped={null}
      onUploaded={(reviewable) => onUploaded?.(reviewable)}
    />
  );
});
