import { createServiceRef, type RequestUser } from '@pipewright/sdk';
import type { Drawn } from './interchange.js';
import type { ReviewMedia } from './media.js';

export type { Drawn as DrawnAnnotation } from './interchange.js';
export type { ReviewMedia } from './media.js';

/** Provided by the annotations addon: what was drawn on a reviewable, for reports and other exports. */
export interface ReviewAnnotations {
  /**
   * A reviewable's media and its annotations, by frame and drawing order; NotFound unless the caller may read the
   * version and the reviewable (its activity) is one of the version's.
   */
  read(
    caller: RequestUser,
    projectName: string,
    versionId: string,
    activityId: string,
  ): Promise<{ media: ReviewMedia; annotations: Drawn[] }>;
}

/** The annotations service of the annotations addon. */
export const annotationsRef = createServiceRef<ReviewAnnotations>({
  addon: 'annotations',
  id: 'annotations',
});
