import type { ScreenProps } from '@pipewright/sdk/screen';
import { exposedScreen } from '@pipewright/sdk/ui';
import { GuestLinksButton } from './GuestLinks';

// Sharing the version on the review screen with a guest link (embedded there through ScreenProps.Extension): the
// same form and links as a list's, for one version.

export default exposedScreen(function ShareVersion({
  project,
  versionId,
}: ScreenProps & { versionId: string }) {
  return project ? <GuestLinksButton project={project} shared={{ versionId }} /> : null;
});
