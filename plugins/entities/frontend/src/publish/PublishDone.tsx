import type { ScreenProps } from '@pipewright/sdk/screen';
import type { Entity } from '../model';
import { go, reviewLink } from './publish';

/** A version just created, and how many reviewables were uploaded to it since. */
export interface Published {
  versionId: string;
  versionName: string;
  productName: string;
  uploaded: number;
}

/** The last step: the new version's reviewables uploaded with the review screen's bar, then open it in review. */
export function PublishDone({
  project,
  folder,
  Extension,
  published,
  onUploaded,
  onClose,
}: {
  project: string;
  folder: Entity;
  Extension: ScreenProps['Extension'];
  published: Published;
  onUploaded(): void;
  onClose(): void;
}) {
  const { versionId, versionName, productName, uploaded } = published;
  return (
    <>
      <p role="status">
        Created {productName} {versionName} in {folder.path}. Add its reviewables here, then open it in
        review.
      </p>
      <Extension
        module="reviewables_screens/UploadReviewable"
        props={{ versionId, versionName, onUploaded }}
        fallback={
          <p className="muted">
            Reviewables are uploaded on the review screen when the reviewables addon is installed.
          </p>
        }
      />
      {uploaded > 0 && (
        <p className="muted" role="status">
          {uploaded === 1 ? 'One reviewable' : `${uploaded} reviewables`} uploaded.
        </p>
      )}
      <div className="pwo-dialog-actions">
        <button
          type="button"
          className="primary"
          onClick={() => {
            onClose();
            go(reviewLink(project, versionId));
          }}
        >
          Open in review
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </>
  );
}
